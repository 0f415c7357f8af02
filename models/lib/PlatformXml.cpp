//===- PlatformXml.cpp - Small SimGrid XML emitter ------------------------===//

#include "PlatformXml.h"

#include <cstdio>

namespace orrery::models::detail {
namespace {

std::string num(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.12g", V);
  return Buf;
}

} // namespace

void XmlWriter::openZone(const std::string &Id, const char *Routing,
                         int Indent) {
  indent(Indent);
  Out += "<zone id=\"" + Id + "\" routing=\"" + Routing + "\">\n";
  ++Stats.Zones;
}

void XmlWriter::closeZone(int Indent) {
  indent(Indent);
  Out += "</zone>\n";
}

void XmlWriter::host(
    const std::string &Id, double Speed, int Cores,
    std::initializer_list<std::pair<const char *, std::string>> Props,
    int Indent, double DiskBandwidth) {
  indent(Indent);
  Out += "<host id=\"" + Id + "\" speed=\"" + num(Speed) + "f\"";
  if (Cores > 1)
    Out += " core=\"" + std::to_string(Cores) + "\"";
  Out += ">\n";
  for (const auto &[K, V] : Props) {
    indent(Indent + 1);
    Out += std::string("<prop id=\"") + K + "\" value=\"" + V + "\"/>\n";
  }
  if (DiskBandwidth > 0) {
    // SimGrid 3.32's file system needs a "content" file (the files already
    // on the disk; without one, opening a file crashes) and finds it only
    // relative to the working directory (an absolute name fails to open):
    // enough "../" to reach the root from any working directory, then
    // /dev/null, an empty disk.
    std::string Empty;
    for (int I = 0; I < 64; ++I)
      Empty += "../";
    Empty += "dev/null";
    indent(Indent + 1);
    Out += "<disk id=\"" + Id + "-disk\" read_bw=\"" + num(DiskBandwidth) +
           "Bps\" write_bw=\"" + num(DiskBandwidth) +
           "Bps\"><prop id=\"size\" value=\"1024TiB\"/><prop id=\"mount\" "
           "value=\"/\"/><prop id=\"content\" value=\"" +
           Empty + "\"/></disk>\n";
  }
  indent(Indent);
  Out += "</host>\n";
  ++Stats.Hosts;
}

void XmlWriter::router(const std::string &Id, int Indent) {
  indent(Indent);
  Out += "<router id=\"" + Id + "\"/>\n";
  ++Stats.Routers;
}

void XmlWriter::link(const std::string &Id, double Bandwidth, double Latency,
                     int Indent, bool FatPipe) {
  LinkOut.append(static_cast<std::size_t>(Indent) * 2, ' ');
  LinkOut += "<link id=\"" + Id + "\" bandwidth=\"" + num(Bandwidth) +
             "Bps\" latency=\"" + num(Latency) + "s\"" +
             (FatPipe ? " sharing_policy=\"FATPIPE\"" : "") + "/>\n";
  ++Stats.Links;
}

void XmlWriter::route(const std::string &Src, const std::string &Dst,
                      std::initializer_list<std::string> Links, int Indent) {
  indent(Indent);
  Out += "<route src=\"" + Src + "\" dst=\"" + Dst + "\" symmetrical=\"NO\">";
  for (const std::string &L : Links)
    Out += "<link_ctn id=\"" + L + "\"/>";
  Out += "</route>\n";
  ++Stats.Routes;
}

void XmlWriter::zoneRoute(const std::string &Src, const std::string &Dst,
                          const std::string &GwSrc, const std::string &GwDst,
                          const std::string &Link, int Indent) {
  indent(Indent);
  Out += "<zoneRoute src=\"" + Src + "\" dst=\"" + Dst + "\" gw_src=\"" +
         GwSrc + "\" gw_dst=\"" + GwDst +
         "\" symmetrical=\"NO\"><link_ctn id=\"" + Link + "\"/></zoneRoute>\n";
  ++Stats.Routes;
}

} // namespace orrery::models::detail
