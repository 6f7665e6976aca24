#include <stdlib.h>
#include <stdint.h>

#define EXTRA_PADDING 0
///// User-defined interface
extern int INPUT_SIZE;
void run_benchmark( void *vargs );
void input_to_data(int fd, void *vdata);
void data_to_input(int fd, void *vdata);
