/* Kernel Tuner examples/cuda/convolution.cu, convolution_naive written as the C loop nest
 * (one output pixel per (y, x), the filter in its own array). */
#ifndef image_height
#define image_height 1024
#endif
#ifndef image_width
#define image_width 1024
#endif
#define filter_height 17
#define filter_width 17

#define border_height ((filter_height/2)*2)
#define border_width ((filter_width/2)*2)
#define input_height (image_height + border_height)
#define input_width (image_width + border_width)

void convolution_naive(float *output, float *input, float *filter)
{
    int x, y, i, j;
    for (y = 0; y < image_height; y++) {
        for (x = 0; x < image_width; x++) {
            float sum = 0.0f;
            for (j = 0; j < filter_height; j++) {
                for (i = 0; i < filter_width; i++) {
                    sum += input[(y + j) * input_width + (x + i)] * filter[j * filter_width + i];
                }
            }
            output[y * image_width + x] = sum;
        }
    }
}
