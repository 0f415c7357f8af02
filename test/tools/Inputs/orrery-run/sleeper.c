/* A simulated program that never ends on its own: it waits to be
 * interrupted. */
#include <unistd.h>

int main(void) {
  for (;;)
    sleep(1);
}
