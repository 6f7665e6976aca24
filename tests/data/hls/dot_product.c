/*===============================================================*/
/*   Rosetta spam-filter: sgd.cpp (software types)               */
/*===============================================================*/
#include <math.h>

#define NUM_FEATURES 1024
#define PAR_FACTOR 32

typedef float FeatureType;
typedef float DataType;
typedef unsigned char LabelType;

// Function to compute the dot product of data (feature) vector and parameter vector
FeatureType dotProduct(FeatureType param[NUM_FEATURES],
                       DataType    feature[NUM_FEATURES])
{
  const int unroll_factor = PAR_FACTOR;
  #pragma HLS array_partition variable=param cyclic factor=unroll_factor
  #pragma HLS array_partition variable=feature cyclic factor=unroll_factor

  FeatureType result = 0;
  for (int i = 0; i < NUM_FEATURES / PAR_FACTOR; i++)
  {
    #pragma HLS PIPELINE II=1
    for(int j = 0; j < PAR_FACTOR; j++)
    {
      FeatureType term = param[i * PAR_FACTOR + j] * feature[i * PAR_FACTOR + j];
      result += term;
    }
  }
  return result;
}

// values of sigmoid function stored in a look-up table
// Compute the gradient of the cost function
void computeGradient(
    FeatureType grad[NUM_FEATURES],
    DataType    feature[NUM_FEATURES],
    FeatureType scale)
{
  const int unroll_factor = PAR_FACTOR;
  #pragma HLS array_partition variable=grad cyclic factor=unroll_factor
  #pragma HLS array_partition variable=feature cyclic factor=unroll_factor

  for (int i = 0; i < NUM_FEATURES / PAR_FACTOR; i++)
  {
    #pragma HLS PIPELINE II=1
    for (int j = 0; j < PAR_FACTOR; j++)
      grad[i * PAR_FACTOR + j] = (scale * feature[i * PAR_FACTOR + j]);
  }
}
