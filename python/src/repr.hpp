// The pieces of the Python forms (__repr__) of the bound types: numbers as Python prints them.
#pragma once

#include <string>

#include "bindings.hpp"

namespace collision::python {

// A number as Python's repr() writes a float: shortest round-trip digits, inf, nan.
inline std::string repr_float(double x) { return std::string(py::repr(py::float_(x))); }

template <class T>
std::string repr_vec(const T& v) {
  return "(" + std::string(py::repr(py::float_(v.x()))) + ", " +
         std::string(py::repr(py::float_(v.y()))) + ")";
}

}  // namespace collision::python
