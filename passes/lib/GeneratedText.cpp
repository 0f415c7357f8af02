//===- GeneratedText.cpp - Text from the input written into code ----------===//

#include "GeneratedText.h"

using namespace llvm;

namespace orrery {

std::string cStringLiteral(StringRef S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\' || C == '?') {
      Out += '\\';
      Out += static_cast<char>(C);
    } else if (C < 0x20 || C >= 0x7f) {
      // Always three octal digits, so a following digit is not absorbed.
      Out += '\\';
      Out += static_cast<char>('0' + (C >> 6));
      Out += static_cast<char>('0' + ((C >> 3) & 7));
      Out += static_cast<char>('0' + (C & 7));
    } else {
      Out += static_cast<char>(C);
    }
  }
  return Out + "\"";
}

std::string commentText(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size(); ++I) {
    Out += S[I];
    bool Closes = S[I] == '*' && I + 1 < S.size() && S[I + 1] == '/';
    bool Opens = S[I] == '/' && I + 1 < S.size() && S[I + 1] == '*';
    if (Closes || Opens)
      Out += ' ';
  }
  return Out;
}

} // namespace orrery
