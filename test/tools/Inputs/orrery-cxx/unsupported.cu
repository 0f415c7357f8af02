// Calls a CUDA library function that skeleton mode does not simulate.
extern "C" int cuFakeLibraryCall(int);

int main() { return cuFakeLibraryCall(1); }
