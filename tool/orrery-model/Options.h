//===- Options.h - orrery-model's command-line options ----------*- C++ -*-===//
//
// A small parser: a subcommand, positional arguments and --key value (or
// --key=value) options, each checked against the subcommand's list.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_MODEL_OPTIONS_H
#define ORRERY_TOOL_MODEL_OPTIONS_H

#include <map>
#include <set>
#include <string>
#include <vector>

namespace orrery::tool {

class Options {
public:
  /// Parses \p Args (without the program name and subcommand). Options in
  /// \p Flags take no value. Returns false and sets \p Error on problems.
  bool parse(const std::vector<std::string> &Args,
             const std::set<std::string> &Valued,
             const std::set<std::string> &Flags, std::string &Error);

  bool has(const std::string &Key) const { return Values.count(Key) != 0; }
  std::string get(const std::string &Key, const std::string &Default) const;
  /// A number option; sets \p Error if present but not a number.
  double number(const std::string &Key, double Default,
                std::string &Error) const;

  std::vector<std::string> Positional;

private:
  std::map<std::string, std::string> Values;
};

} // namespace orrery::tool

#endif // ORRERY_TOOL_MODEL_OPTIONS_H
