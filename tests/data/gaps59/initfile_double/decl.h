double a;
int n;
double x[N];
