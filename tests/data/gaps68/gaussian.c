int Size;
float *a, *b, *m;
void ForwardSub()
{
	int t, i, j;
#pragma scop
	for (t=0; t<(Size-1); t++) {
		for (i=0; i<Size-1-t; i++) {
			m[Size*(i+t+1)+t] = a[Size*(i+t+1)+t] / a[Size*t+t];
		}
		for (i=0; i<Size-1-t; i++) {
			for (j=0; j<Size-t; j++) {
				a[Size*(i+1+t)+(j+t)] -= m[Size*(i+1+t)+t] * a[Size*t+(j+t)];
			}
			b[i+1+t] -= m[Size*(i+1+t)+t] * b[t];
		}
	}
#pragma endscop
}
