; crt0.s: start-up code of GameWorld's homebrew Game Boy games (sdcc's sm83 port, no GBDK).
;
; Memory map the games rely on:
;   0x0000-0x00FF  restart and interrupt vectors (only VBlank is used)
;   0x0100-0x014F  entry point and cartridge header (makebin -Z writes the logo and the checksums)
;   0xC000-0xC0FF  the GameWorld block: state fields at fixed addresses (C `__at`), seed at 0xC0F0
;   0xC100-        C globals (_DATA, linked with -b _DATA=0xC100); the stack grows down from 0xE000
;
; Start-up clears all work RAM, copies initialised globals, enables the VBlank interrupt and calls main.

        .module crt0
        .globl  _main
        .globl  _gb_vbl_done
        .globl  _gb_frames

        .area   _HEADER (ABS)
        .org    0x00
        ret
        .org    0x08
        ret
        .org    0x10
        ret
        .org    0x18
        ret
        .org    0x20
        ret
        .org    0x28
        ret
        .org    0x30
        ret
        .org    0x38
        ret
        .org    0x40            ; VBlank
        jp      vblank_isr
        .org    0x48            ; LCD STAT
        reti
        .org    0x50            ; timer
        reti
        .org    0x58            ; serial
        reti
        .org    0x60            ; joypad
        reti

        .org    0x100
        nop
        jp      init
        ; 0x104-0x14F: the header, filled in by makebin -Z

        .area   _CODE
init:
        di
        ld      sp, #0xE000
        ; clear work RAM 0xC000-0xDFFF (nothing is on the stack yet)
        ld      hl, #0xC000
        ld      bc, #0x2000
1$:
        xor     a
        ld      (hl+), a
        dec     bc
        ld      a, b
        or      a, c
        jr      NZ, 1$
        ; initialised globals: copy _INITIALIZER (ROM) to _INITIALIZED (RAM)
        ld      de, #s__INITIALIZED
        ld      hl, #s__INITIALIZER
        ld      bc, #l__INITIALIZER
2$:
        ld      a, b
        or      a, c
        jr      Z, 3$
        ld      a, (hl+)
        ld      (de), a
        inc     de
        dec     bc
        jr      2$
3$:
        call    gsinit
        ; VBlank interrupt only
        xor     a
        ldh     (0x0F), a       ; IF
        ld      a, #0x01
        ldh     (0xFF), a       ; IE
        ei
        call    _main
4$:
        halt
        nop
        jr      4$

vblank_isr:
        push    af
        push    hl
        ld      a, #1
        ld      (_gb_vbl_done), a
        ld      hl, #_gb_frames
        inc     (hl)
        jr      NZ, 5$
        inc     hl
        inc     (hl)
5$:
        pop     hl
        pop     af
        reti

        ; the order of the areas for the linker
        .area   _HOME
        .area   _CODE
        .area   _INITIALIZER
        .area   _GSINIT
        .area   _GSFINAL
        .area   _DATA
        .area   _INITIALIZED
        .area   _BSEG
        .area   _BSS
        .area   _HEAP

        .area   _GSINIT
gsinit::
        .area   _GSFINAL
        ret

        .area   _DATA
_gb_vbl_done::
        .ds     1
_gb_frames::
        .ds     2
