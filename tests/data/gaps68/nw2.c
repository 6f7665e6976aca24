int maximum( int a, int b, int c){
  int k;
  if( a <= b ) k = b;
  else k = a;
  if( k <=c ) return(c);
  else return(k);
}
void nw_bottomright(int *input_itemsets, int *referrence, int max_cols, int penalty)
{
  int i, idx, index;
#pragma scop
  for( i = max_cols - 4 ; i >= 0 ; i--){
    for( idx = 0 ; idx <= i ; idx++){
      index =  ( max_cols - idx - 2 ) * max_cols + idx + max_cols - i - 2 ;
      input_itemsets[index]= maximum( input_itemsets[index-1-max_cols]+ referrence[index], 
                                      input_itemsets[index-1]         - penalty, 
                                      input_itemsets[index-max_cols]  - penalty);
    }
  }
#pragma endscop
}
