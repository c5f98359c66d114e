// The message of the exception a call throws, for tests that compare error texts.
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace collision::test {

// What f throws as an Error: its message. Anything else comes back as a text no expected message
// equals ("wrong exception type: ...", "no exception"), so the comparison fails naming what
// happened instead.
template <class Error, class F>
std::string error_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "no exception";
}

}  // namespace collision::test
