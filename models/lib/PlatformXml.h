//===- PlatformXml.h - Small SimGrid XML emitter ----------------*- C++ -*-===//
//
// Internal: writes SimGrid platform elements with consistent number
// formatting and counts what it wrote.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_LIB_PLATFORMXML_H
#define ORRERY_MODELS_LIB_PLATFORMXML_H

#include "orrery/models/Platform.h"

#include <initializer_list>
#include <string>

namespace orrery::models::detail {

class XmlWriter {
public:
  /// Elements go to \p Out; links go to \p LinkOut when given.
  explicit XmlWriter(std::string &Out, std::string *LinkOut = nullptr)
      : Out(Out), LinkOut(LinkOut ? *LinkOut : Out) {}

  void raw(const std::string &S) { Out += S; }
  void openZone(const std::string &Id, const char *Routing, int Indent);
  void closeZone(int Indent);
  /// A host; with \p DiskBandwidth > 0, a disk of that read and write
  /// bandwidth (bytes/s) mounted at / on it (SMPI's MPI-IO needs one).
  void host(const std::string &Id, double Speed, int Cores,
            std::initializer_list<std::pair<const char *, std::string>> Props,
            int Indent, double DiskBandwidth = 0);
  void router(const std::string &Id, int Indent);
  /// A link; \p FatPipe: each flow gets the whole bandwidth (SimGrid's
  /// FATPIPE sharing) instead of sharing it.
  void link(const std::string &Id, double Bandwidth, double Latency, int Indent,
            bool FatPipe = false);
  void route(const std::string &Src, const std::string &Dst,
             std::initializer_list<std::string> Links, int Indent);
  /// A one-way route between zones through their gateways.
  void zoneRoute(const std::string &Src, const std::string &Dst,
                 const std::string &GwSrc, const std::string &GwDst,
                 const std::string &Link, int Indent);

  PlatformStats Stats;
  /// Levels of zones open around what is written now (indentation only;
  /// links have their own).
  int Depth = 0;

private:
  void indent(int N) {
    Out.append(static_cast<std::size_t>(N + Depth) * 2, ' ');
  }
  std::string &Out;
  std::string &LinkOut;
};

} // namespace orrery::models::detail

#endif // ORRERY_MODELS_LIB_PLATFORMXML_H
