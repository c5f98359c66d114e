// A fixture for the layering test: geometry reaching into the checker must be refused.
#pragma once

#include "checker/trajectory_scan.hpp"
