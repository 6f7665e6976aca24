/* Numerical Recipes' tridiagonal solver, with its unsigned long sizes and counter */
void tridag(float a[], float b[], float c[], float r[], float u[], float gam[],
	unsigned long n)
{
	unsigned long j;
	float bet;

	bet=b[1];
	u[1]=r[1]/bet;
	for (j=2;j<=n;j++) {
		gam[j]=c[j-1]/bet;
		bet=b[j]-a[j]*gam[j];
		u[j]=(r[j]-a[j]*u[j-1])/bet;
	}
	for (j=(n-1);j>=1;j--)
		u[j] -= gam[j+1]*u[j+1];
}
