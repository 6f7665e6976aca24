/* MILC-style site loop: FORALLSITES(i,s) steps a site pointer along lattice[]
   (generic/ files); site fields split re/im so that members are plain arrays. */
#define FORALLSITES(i,s) \
    for(i=0,s=lattice;i<sites_on_node;i++,s++)

typedef struct {
  double link_re[4][3][3], link_im[4][3][3];
  double phi_re[3], phi_im[3];
  double tmp_re[3], tmp_im[3];
} site;

site *lattice;
int sites_on_node;

void scale_phi(int dir)
{
  register int i, c, k;
  register site *s;
  FORALLSITES(i,s){
    for (c = 0; c < 3; c++) {
      s->tmp_re[c] = 0.0; s->tmp_im[c] = 0.0;
      for (k = 0; k < 3; k++) {
        s->tmp_re[c] += s->link_re[dir][c][k]*s->phi_re[k] - s->link_im[dir][c][k]*s->phi_im[k];
        s->tmp_im[c] += s->link_re[dir][c][k]*s->phi_im[k] + s->link_im[dir][c][k]*s->phi_re[k];
      }
    }
  }
}
