#include "trace/trace-hw_am335x_hw_audio.h"
