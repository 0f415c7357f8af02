//===- bootstrap_single.cpp - one process, no launcher --------------------===//
#include "bootstrap.h"

#include <map>

namespace ramc {
namespace {

class SingleBootstrap final : public Bootstrap {
public:
  const char *name() const override { return "single"; }
  bool put(const std::string &Key, const std::vector<uint8_t> &Value,
           std::string &) override {
    Store[Key] = Value;
    return true;
  }
  bool fence(std::string &) override { return true; }
  bool get(int Peer, const std::string &Key, std::vector<uint8_t> &Value,
           std::string &Err) override {
    auto It = Store.find(Key);
    if (Peer != 0 || It == Store.end()) {
      Err = "single-process bootstrap has no key '" + Key + "' for rank " +
            std::to_string(Peer);
      return false;
    }
    Value = It->second;
    return true;
  }
  bool barrier(const std::function<bool()> &, std::string &) override {
    return true;
  }

private:
  std::map<std::string, std::vector<uint8_t>> Store;
};

} // namespace

std::unique_ptr<Bootstrap> createSingleBootstrap() {
  return std::make_unique<SingleBootstrap>();
}

} // namespace ramc
