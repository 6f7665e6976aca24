/* Minimal form of libjpeg jccolor.c rgb_ycc_start: table sections at #define'd offsets. */
#define MAXJSAMPLE	255
#define R_Y_OFF		0			/* offset to R => Y section */
#define G_Y_OFF		(1*(MAXJSAMPLE+1))	/* offset to G => Y section */
void start(long rgb_ycc_tab[2*(MAXJSAMPLE+1)])
{
  long i;
  for (i = 0; i <= MAXJSAMPLE; i++) {
    rgb_ycc_tab[i+R_Y_OFF] = 19595 * i;
    rgb_ycc_tab[i+G_Y_OFF] = 38470 * i;
  }
}
