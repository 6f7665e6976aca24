/* minimal stand-in for LAMMPS lib/linalg lmp_f2c.h (written from memory) */
typedef int integer;
typedef double doublereal;
typedef int logical;
typedef int ftnlen;
#define max(a,b) ((a) >= (b) ? (a) : (b))
#define min(a,b) ((a) <= (b) ? (a) : (b))
