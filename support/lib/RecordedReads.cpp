//===- RecordedReads.cpp - Device values a native run read ----------------===//

#include "orrery/support/RecordedReads.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace orrery::support {

namespace {

std::string hex(const unsigned char *Data, std::size_t N) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out = "0x";
  for (std::size_t I = 0; I < N; ++I) {
    Out += Digits[Data[I] >> 4];
    Out += Digits[Data[I] & 15];
  }
  return Out;
}

/// One element of \p Type at \p P as liborrery-sim parses it back exactly
/// (17 significant digits for a double, 9 for a float).
std::string number(const std::string &Type, const unsigned char *P) {
  char Buf[64];
  if (Type == "f64") {
    double D;
    std::memcpy(&D, P, 8);
    std::snprintf(Buf, sizeof Buf, "%.17g", D);
  } else if (Type == "f32") {
    float F;
    std::memcpy(&F, P, 4);
    std::snprintf(Buf, sizeof Buf, "%.9g", double(F));
  } else {
    std::size_t N = valueTypeBytes(Type);
    unsigned long long U = 0;
    std::memcpy(&U, P, N); // little endian: the low bytes
    if (Type[0] == 'i' && N < 8 && (U >> (8 * N - 1)) & 1)
      U |= ~0ULL << (8 * N); // sign-extend
    if (Type[0] == 'i')
      std::snprintf(Buf, sizeof Buf, "%lld", static_cast<long long>(U));
    else
      std::snprintf(Buf, sizeof Buf, "%llu", U);
  }
  return Buf;
}

bool allEqual(const unsigned char *Data, std::size_t N, std::size_t Elem) {
  for (std::size_t Off = Elem; Off + Elem <= N; Off += Elem)
    if (std::memcmp(Data, Data + Off, Elem) != 0)
      return false;
  return true;
}

} // namespace

std::size_t valueTypeBytes(const std::string &Type) {
  if (Type == "f64" || Type == "i64" || Type == "u64")
    return 8;
  if (Type == "f32" || Type == "i32" || Type == "u32")
    return 4;
  if (Type == "i16" || Type == "u16")
    return 2;
  if (Type == "i8" || Type == "u8")
    return 1;
  return 0; // bytes: no element type
}

void RecordedSite::add(const std::string &Value) {
  ++Reads;
  if (!Values.empty() && Values.back().first == Value)
    ++Values.back().second;
  else
    Values.emplace_back(Value, 1);
}

std::string recordedValue(const std::string &Type, const unsigned char *Data,
                          std::size_t N) {
  std::size_t Elem = valueTypeBytes(Type);
  if (Elem == 0) {
    // An untyped destination: its bytes, one if all are equal.
    if (N > 0 && allEqual(Data, N, 1))
      return hex(Data, 1);
    return hex(Data, std::min(N, MaxRecordedBytes));
  }
  if (N >= Elem && N % Elem == 0 && allEqual(Data, N, Elem))
    return number(Type, Data);
  return "bytes:" + hex(Data, std::min(N, MaxRecordedBytes));
}

std::string recordedReadsJson(const RecordedReads &R) {
  // One line per site (its runs of values inline), so that a recording
  // reads and diffs by site.
  nlohmann::ordered_json Head;
  Head["schema"] = RecordedReadsSchema;
  Head["rank"] = R.Rank;
  Head["world_size"] = R.WorldSize;
  Head["unrecorded"] = R.Unrecorded;
  std::string Out = "{\n";
  for (const auto &[Key, Value] : Head.items())
    Out += " " + nlohmann::json(Key).dump() + ": " + Value.dump() + ",\n";
  Out += " \"sites\": [";
  for (std::size_t I = 0; I < R.Sites.size(); ++I) {
    const RecordedSite &S = R.Sites[I];
    nlohmann::ordered_json Values = nlohmann::ordered_json::array();
    for (const auto &[V, Count] : S.Values)
      Values.push_back({V, Count});
    nlohmann::ordered_json J = {{"file", S.File},     {"line", S.Line},
                                {"column", S.Column}, {"api", S.Api},
                                {"type", S.Type},     {"bytes", S.Bytes},
                                {"reads", S.Reads},   {"values", Values}};
    Out += std::string(I ? ",\n  " : "\n  ") + J.dump();
  }
  Out += R.Sites.empty() ? "]\n}\n" : "\n ]\n}\n";
  return Out;
}

bool parseRecordedReads(const std::string &Text, const std::string &Path,
                        RecordedReads &Out, std::string &Error) {
  Out = RecordedReads();
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  if (J.is_discarded() || !J.is_object()) {
    Error = Path + ": not a JSON object (a file liborrery-native writes "
                   "with ORRERY_RECORD_READS)";
    return false;
  }
  auto Schema = J.find("schema");
  if (Schema == J.end() || !Schema->is_string() ||
      *Schema != RecordedReadsSchema) {
    Error = Path + ": \"schema\" is " +
            (Schema == J.end() ? std::string("missing") : Schema->dump()) +
            ", expected \"" + RecordedReadsSchema +
            "\" (record it again with this Orrery's liborrery-native)";
    return false;
  }
  auto Int = [&](const nlohmann::json &Obj, const char *Key, long long Min,
                 long long &V, const std::string &Where) {
    auto It = Obj.find(Key);
    if (It == Obj.end() || !It->is_number_integer() ||
        It->get<long long>() < Min) {
      Error = Path + ": " + Where + "\"" + Key +
              "\" is not an integer >= " + std::to_string(Min);
      return false;
    }
    V = It->get<long long>();
    return true;
  };
  long long Rank = 0, World = 0, Unrecorded = 0;
  if (!Int(J, "rank", 0, Rank, "") || !Int(J, "world_size", 1, World, ""))
    return false;
  if (Rank >= World) {
    Error = Path + ": rank " + std::to_string(Rank) +
            " is not below world_size " + std::to_string(World);
    return false;
  }
  if (J.contains("unrecorded") && !Int(J, "unrecorded", 0, Unrecorded, ""))
    return false;
  Out.Rank = static_cast<int>(Rank);
  Out.WorldSize = static_cast<int>(World);
  Out.Unrecorded = static_cast<std::uint64_t>(Unrecorded);
  auto Sites = J.find("sites");
  if (Sites == J.end() || !Sites->is_array()) {
    Error = Path + ": \"sites\" is not a list";
    return false;
  }
  for (std::size_t I = 0; I < Sites->size(); ++I) {
    const nlohmann::json &E = (*Sites)[I];
    std::string Where = "sites[" + std::to_string(I) + "]: ";
    if (!E.is_object() || !E.contains("file") || !E["file"].is_string() ||
        !E.contains("type") || !E["type"].is_string() ||
        !E.contains("values") || !E["values"].is_array()) {
      Error = Path + ": " + Where + "needs \"file\", \"type\" and \"values\"";
      return false;
    }
    RecordedSite S;
    long long Line = 0, Column = 0, Bytes = 0;
    if (!Int(E, "line", 1, Line, Where) ||
        (E.contains("column") && !Int(E, "column", 0, Column, Where)) ||
        (E.contains("bytes") && !Int(E, "bytes", 0, Bytes, Where)))
      return false;
    S.File = E["file"].get<std::string>();
    S.Line = static_cast<unsigned>(Line);
    S.Column = static_cast<unsigned>(Column);
    S.Type = E["type"].get<std::string>();
    S.Bytes = static_cast<std::uint64_t>(Bytes);
    if (E.contains("api") && E["api"].is_string())
      S.Api = E["api"].get<std::string>();
    for (std::size_t K = 0; K < E["values"].size(); ++K) {
      const nlohmann::json &V = E["values"][K];
      if (!V.is_array() || V.size() != 2 || !V[0].is_string() ||
          !V[1].is_number_unsigned() || V[1].get<std::uint64_t>() == 0) {
        Error = Path + ": " + Where + "values[" + std::to_string(K) +
                "] is not [VALUE, COUNT] with a count >= 1";
        return false;
      }
      S.Values.emplace_back(V[0].get<std::string>(), V[1].get<std::uint64_t>());
      S.Reads += V[1].get<std::uint64_t>();
    }
    Out.Sites.push_back(std::move(S));
  }
  return true;
}

bool readRecordedReads(const std::string &Path, RecordedReads &Out,
                       std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot read it (a file liborrery-native writes with "
                   "ORRERY_RECORD_READS)";
    return false;
  }
  std::ostringstream SS;
  SS << In.rdbuf();
  return parseRecordedReads(SS.str(), Path, Out, Error);
}

} // namespace orrery::support
