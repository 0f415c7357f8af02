//===- NvmlQueries.cpp - NVML as a simulated GPU answers it ---------------===//
//
// The skeleton nvml.h (skeleton-include) declares these; programs that read
// the GPU clock with NVML to turn times into cycles (benchmark suites do)
// get the machine file's SM clock. A device handle is its index + 1.
//
//===----------------------------------------------------------------------===//

#include "ranks/Runtime.h"

#include "skeleton-include/nvml.h"

#include <cstdint>
#include <cstring>

using namespace orrery::sim;

namespace {

int indexOf(nvmlDevice_t D) {
  return static_cast<int>(reinterpret_cast<std::uintptr_t>(D)) - 1;
}

bool valid(nvmlDevice_t D) {
  int I = indexOf(D);
  return I >= 0 && I < Runtime::get().gpusPerNode();
}

} // namespace

extern "C" {

nvmlReturn_t nvmlInit(void) { return NVML_SUCCESS; }
nvmlReturn_t nvmlInit_v2(void) { return NVML_SUCCESS; }
nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }

const char *nvmlErrorString(nvmlReturn_t R) {
  switch (R) {
  case NVML_SUCCESS:
    return "Success";
  case NVML_ERROR_INVALID_ARGUMENT:
    return "Invalid Argument";
  case NVML_ERROR_NOT_SUPPORTED:
    return "Not Supported (not modelled by the simulated GPU)";
  case NVML_ERROR_NOT_FOUND:
    return "Not Found";
  default:
    return "Unknown Error";
  }
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *Count) {
  if (!Count)
    return NVML_ERROR_INVALID_ARGUMENT;
  *Count = static_cast<unsigned>(Runtime::get().gpusPerNode());
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *Count) {
  return nvmlDeviceGetCount(Count);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int Index,
                                        nvmlDevice_t *Device) {
  if (!Device)
    return NVML_ERROR_INVALID_ARGUMENT;
  if (static_cast<int>(Index) >= Runtime::get().gpusPerNode())
    return NVML_ERROR_INVALID_ARGUMENT;
  *Device = reinterpret_cast<nvmlDevice_t>(std::uintptr_t(Index) + 1);
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int Index,
                                           nvmlDevice_t *Device) {
  return nvmlDeviceGetHandleByIndex(Index, Device);
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t Device, nvmlClockType_t Type,
                                    unsigned int *Clock) {
  if (!Clock || !valid(Device))
    return NVML_ERROR_INVALID_ARGUMENT;
  *Clock = 0;
  if (Type != NVML_CLOCK_SM && Type != NVML_CLOCK_GRAPHICS)
    return NVML_ERROR_NOT_SUPPORTED; // no memory or video clock modelled
  *Clock = static_cast<unsigned>(
      Runtime::get().machine().Gpu.Clock.Value / 1e6 + 0.5); // MHz
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t Device,
                                       nvmlClockType_t Type,
                                       unsigned int *Clock) {
  return nvmlDeviceGetClockInfo(Device, Type, Clock);
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t Device, unsigned int *Power) {
  if (!Power || !valid(Device))
    return NVML_ERROR_INVALID_ARGUMENT;
  *Power = 0;
  return NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t Device,
                                      nvmlTemperatureSensors_t,
                                      unsigned int *Temp) {
  if (!Temp || !valid(Device))
    return NVML_ERROR_INVALID_ARGUMENT;
  *Temp = 0;
  return NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t Device, char *Name,
                               unsigned int Length) {
  if (!Name || Length == 0 || !valid(Device))
    return NVML_ERROR_INVALID_ARGUMENT;
  std::strncpy(Name, Runtime::get().machine().Gpu.Model.c_str(), Length - 1);
  Name[Length - 1] = '\0';
  return NVML_SUCCESS;
}

} // extern "C"
