; gbasm.s: the tile-write queue flush, in assembly so that a full queue fits in one VBlank.
        .module gbasm
        .globl  _gb_vq
        .globl  _gb_vq_len
        .area   _CODE
_gb_vq_flush::
        ld      a, (_gb_vq_len)
        or      a
        ret     Z
        ld      c, a
        ld      hl, #_gb_vq
1$:
        ld      a, (hl+)
        ld      e, a
        ld      a, (hl+)
        ld      d, a
        ld      a, (hl+)
        ld      (de), a
        dec     c
        jr      NZ, 1$
        xor     a
        ld      (_gb_vq_len), a
        ret
