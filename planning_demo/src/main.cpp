// planning_demo: one planning cycle of a driving scenario, checked with the collision library.
#include <iostream>
#include <string>
#include <vector>

#include "app.hpp"

#ifndef PLANNING_DEMO_SOURCE_DIR
#define PLANNING_DEMO_SOURCE_DIR "."
#endif

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return planning_demo::run_demo(args, PLANNING_DEMO_SOURCE_DIR, std::cout, std::cerr);
}
