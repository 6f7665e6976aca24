/* Conway's Game of Life, one generation with an explicit neighbour count, written from
   memory in the style of C teaching codes */
void life_step(int rows, int cols, int cur[rows][cols], int next[rows][cols])
{
    for (int i = 1; i < rows - 1; i++) {
        for (int j = 1; j < cols - 1; j++) {
            int count = 0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++)
                    if (di != 0 || dj != 0)
                        count += cur[i + di][j + dj];
            if (cur[i][j] == 1 && (count < 2 || count > 3))
                next[i][j] = 0;
            else if (cur[i][j] == 0 && count == 3)
                next[i][j] = 1;
            else
                next[i][j] = cur[i][j];
        }
    }
}
