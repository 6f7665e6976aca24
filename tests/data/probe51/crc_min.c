/* PNG spec Annex D update_crc over several independent streams: the table index is a
 * byte of data (c ^ buf) & 0xff, a read-only table. */
unsigned long crc_table[256];
#define NSTREAM 8
#define LEN 64
void crc_streams(unsigned char buf[NSTREAM][LEN], unsigned long out[NSTREAM])
{
  int s, n;
  for (s = 0; s < NSTREAM; s++) {
    unsigned long c = 0xffffffffUL;
    for (n = 0; n < LEN; n++)
      c = crc_table[(c ^ buf[s][n]) & 0xff] ^ (c >> 8);
    out[s] = c ^ 0xffffffffUL;
  }
}
