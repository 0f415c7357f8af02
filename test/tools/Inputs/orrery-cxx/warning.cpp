// Parses cleanly (orrery-instrument succeeds) but fails with -Werror.
int main() {
  int unused = 0;
  return 0;
}
