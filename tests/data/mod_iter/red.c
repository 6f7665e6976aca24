void red(double **u, int n)
{
	int i,j;
	for (j=2;j<n;j++)
		for (i=2+j%2;i<n;i+=2)
			u[i][j]=0.25*(u[i+1][j]+u[i-1][j]+u[i][j+1]+u[i][j-1]);
}
