int n;
double a[N];
