#include "trace/trace-hw_am335x_hw_i2c.h"
