#ifndef LX_FAKE_MATH_H
#define LX_FAKE_MATH_H
double sqrt(double x);
double exp(double x);
double fabs(double x);
double fmax(double x, double y);
double fmin(double x, double y);
double pow(double x, double y);
float sqrtf(float x);
float expf(float x);
float fabsf(float x);
float fmaxf(float x, float y);
float fminf(float x, float y);
float powf(float x, float y);
#endif
