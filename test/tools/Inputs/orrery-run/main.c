/* An ordinary executable: orrery-run must refuse it. */
int main(void) { return 0; }
