#include "trace/trace-hw_am335x_net.h"
