/* Warshall's transitive closure, as in the common GeeksforGeeks-style C teaching code
   (found via find_string id 8107793510; printMatrix body written from memory) */
#include <stdio.h>
#include <stdbool.h>

#define V 12

void printMatrix(int reach[][V]);

void transitiveClosure(int graph[V][V], int reach[V][V]) {


    // Initialize reach matrix same as the input graph matrix
    for (int i = 0; i < V; i++)
        for (int j = 0; j < V; j++)
            reach[i][j] = graph[i][j];

    // Warshall’s Algorithm
    for (int k = 0; k < V; k++) {
        for (int i = 0; i < V; i++) {
            for (int j = 0; j < V; j++) {
                reach[i][j] = reach[i][j] || (reach[i][k] && reach[k][j]);
            }
        }
    }

    printMatrix(reach);
}

void printMatrix(int reach[][V]) {
    printf("Following matrix is transitive closure of the given graph\n");
    for (int i = 0; i < V; i++) {
        for (int j = 0; j < V; j++) {
            printf("%d ", reach[i][j]);
        }
        printf("\n");
    }
}
