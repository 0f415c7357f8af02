/* A shared object standing in for a skeleton program in dry runs. */
int orrery_run_test_symbol;
