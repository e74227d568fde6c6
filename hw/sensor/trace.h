#include "trace/trace-hw_am335x_hw_sensor.h"
