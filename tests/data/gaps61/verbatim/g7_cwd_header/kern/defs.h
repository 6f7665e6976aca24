#define SCALE(x) ((x) * 3)
