#define SCALE(x) ((x) * 5)
