#include "cli.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "app.hpp"
#include "test_support.hpp"

namespace planning_demo {
namespace {

std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse_arguments(args, "/src");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(Cli, Defaults) {
  const Options o = parse_arguments({}, "/src");
  EXPECT_EQ(o.scenario, "/src/config/scenarios/default.yaml");
  EXPECT_EQ(o.config, "/src/config/default.yaml");
  EXPECT_EQ(o.svg, "planning_demo.svg");
  EXPECT_EQ(o.json, "");
  EXPECT_EQ(o.candidates, 0);
  EXPECT_FALSE(o.help);
}

TEST(Cli, EveryOptionBothSpellings) {
  const Options o = parse_arguments({"--scenario", "a.yaml", "--config=b.yaml", "--svg", "c.svg",
                                     "--json=d.json", "--candidates", "2500"},
                                    "/src");
  EXPECT_EQ(o.scenario, "a.yaml");
  EXPECT_EQ(o.config, "b.yaml");
  EXPECT_EQ(o.svg, "c.svg");
  EXPECT_EQ(o.json, "d.json");
  EXPECT_EQ(o.candidates, 2500);
  EXPECT_EQ(parse_arguments({"--commonroad", "e.xml"}, "/src").commonroad, "e.xml");
  EXPECT_EQ(parse_arguments({"--commonroad=e.xml"}, "/src").commonroad, "e.xml");
  EXPECT_TRUE(parse_arguments({"--help"}, "/src").help);
  EXPECT_TRUE(parse_arguments({"-h"}, "/src").help);
}

TEST(Cli, BadArguments) {
  EXPECT_CONTAINS(usage_error({"--nope"}), "unknown option '--nope'");
  EXPECT_CONTAINS(usage_error({"--scenario", "a.yaml", "--commonroad", "b.xml"}),
                  "--scenario and --commonroad: give one scenario, not both");
  EXPECT_CONTAINS(usage_error({"file.yaml"}), "unexpected argument 'file.yaml'");
  EXPECT_CONTAINS(usage_error({"--svg"}), "--svg: missing value");
  EXPECT_CONTAINS(usage_error({"--svg="}), "--svg: empty value");
  EXPECT_CONTAINS(usage_error({"--json", "a", "--json", "b"}), "--json: given more than once");
  for (const char* bad : {"0", "-5", "abc", "12x", "100001", "99999999999999999999", "1e3", ""}) {
    EXPECT_CONTAINS(usage_error({std::string("--candidates=") + bad}),
                    bad[0] ? "--candidates: expected a whole number" : "--candidates: empty value")
        << bad;
  }
  EXPECT_EQ(parse_arguments({"--candidates", "100000"}, "/src").candidates, 100000);
}

TEST(Cli, RunDemoReportsErrorsWithStatus) {
  std::ostringstream out, err;
  EXPECT_EQ(run_demo({"--bogus"}, "/src", out, err), 2);
  EXPECT_CONTAINS(err.str(), "unknown option '--bogus'");
  EXPECT_CONTAINS(err.str(), "--help");

  std::ostringstream out2, err2;
  EXPECT_EQ(run_demo({"--help"}, "/src", out2, err2), 0);
  EXPECT_CONTAINS(out2.str(), "Usage: planning_demo [--scenario FILE | --commonroad FILE]");
  // Defaults are shown relative to the repository, never as the build's absolute paths.
  EXPECT_CONTAINS(out2.str(), "default: config/scenarios/default.yaml");
  EXPECT_EQ(out2.str().find("/src/"), std::string::npos) << out2.str();

  std::ostringstream out3, err3;
  EXPECT_EQ(run_demo({"--scenario", "/no/such.yaml"}, PLANNING_DEMO_SOURCE_DIR, out3, err3), 1);
  EXPECT_CONTAINS(err3.str(), "bad scenario: /no/such.yaml:1: (file): cannot open");

  std::ostringstream out4, err4;
  EXPECT_EQ(run_demo({"--config", "/no/such_config.yaml"}, PLANNING_DEMO_SOURCE_DIR, out4, err4),
            1);
  EXPECT_CONTAINS(err4.str(), "bad config: ");
  EXPECT_CONTAINS(err4.str(), "/no/such_config.yaml");
}

}  // namespace
}  // namespace planning_demo
