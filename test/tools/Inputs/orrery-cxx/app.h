// Found through a quoted include next to app.cu: the driver compiles the
// instrumented copy elsewhere and must still find it.
#define APP_N 1024
