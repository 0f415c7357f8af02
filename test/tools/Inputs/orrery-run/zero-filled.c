/* A megabyte of zero-filled data (.bss): past the writable segment's file
   pages, the loader maps it anonymously, one mapping more per copy. */
static char Zeroes[1 << 20];

char *zeroes(void) { return Zeroes; }
