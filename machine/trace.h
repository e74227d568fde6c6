#include "trace/trace-hw_am335x_machine.h"
