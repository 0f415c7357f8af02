//===- FileText.cpp - Bounded reading of a machine file -------------------===//

#include "FileText.h"

#include "orrery/models/BoundedRead.h"

#include <cstring>

namespace orrery::models::detail {

bool readMachineFileText(const std::string &Path, std::string &Text,
                         std::string &Error) {
  BoundedRead R = readBounded(Path, MaxMachineFileBytes);
  switch (R.Outcome) {
  case ReadOutcome::Ok:
    Text = std::move(R.Text);
    return true;
  case ReadOutcome::CannotOpen:
    Error = std::string("cannot open the file (") + std::strerror(R.Errno) +
            "); check the path";
    return false;
  case ReadOutcome::NotRegular:
    Error = "not a regular file; give the path of a machine file "
            "(models/machines/*.yaml)";
    return false;
  case ReadOutcome::ReadError:
    Error =
        std::string("cannot read the file (") + std::strerror(R.Errno) + ")";
    return false;
  case ReadOutcome::TooLarge:
    Error = "the file is larger than " +
            std::to_string(MaxMachineFileBytes >> 20) +
            " MiB, the limit for a machine file; give a machine file "
            "(models/machines/*.yaml)";
    return false;
  }
  return false;
}

} // namespace orrery::models::detail
