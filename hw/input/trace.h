#include "trace/trace-hw_am335x_hw_input.h"
