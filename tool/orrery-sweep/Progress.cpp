//===- Progress.cpp - orrery-sweep: the progress line ---------------------===//

#include "Progress.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace orrery::sweep {

std::string formatDuration(double Seconds) {
  long S = std::lround(std::max(0.0, Seconds));
  std::ostringstream OS;
  if (S >= 3600)
    OS << S / 3600 << "h" << (S % 3600) / 60 << "m";
  else if (S >= 60)
    OS << S / 60 << "m" << S % 60 << "s";
  else
    OS << S << "s";
  return OS.str();
}

Progress::Progress(std::ostream &OS, bool Terminal, std::size_t Total,
                   std::size_t AlreadyDone, unsigned Jobs)
    : OS(OS), Terminal(Terminal), Total(Total), Done(AlreadyDone), Jobs(Jobs) {}

void Progress::finished(bool Ok, double Seconds) {
  if (Running)
    --Running;
  ++(Ok ? Done : Failed);
  ++FinishedHere;
  SecondsHere += Seconds;
}

std::string Progress::line() const {
  std::ostringstream L;
  std::size_t Left = Total - Done - Failed;
  L << "[" << Done + Failed << "/" << Total << "] " << Done << " done, "
    << Running << " running, " << Failed << " failed";
  if (Left == 0)
    return L.str();
  L << ", ETA ";
  if (FinishedHere == 0) {
    L << "?";
  } else {
    double Mean = SecondsHere / FinishedHere;
    L << formatDuration(Mean * std::ceil(double(Left) / std::max(1u, Jobs)));
  }
  return L.str();
}

void Progress::draw(const std::string &Event) {
  if (Terminal) {
    OS << "\r\033[K";
    if (!Event.empty())
      OS << Event << "\n";
    OS << line() << std::flush;
    return;
  }
  if (!Event.empty())
    OS << Event << "  " << line() << "\n" << std::flush;
}

void Progress::finish() {
  if (Terminal)
    OS << "\n" << std::flush;
}

} // namespace orrery::sweep
