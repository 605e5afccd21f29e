; A test cartridge with an MBC3 real-time clock (type 0x10): it latches the clock again and again and
; copies seconds, minutes, hours and the day counter to 0xC000-0xC003. Built by the tests with sdasgb,
; sdldgb and makebin -Z -yt 0x10 -ya 1.
        .area   _HEADER (ABS)
        .org    0x100
        nop
        jp      start
        .org    0x150
start:
        di
        ld      sp, #0xE000
        ld      a, #0x0A
        ld      (0x0000), a     ; enable cartridge RAM and the clock
loop:
        xor     a
        ld      (0x6000), a
        ld      a, #1
        ld      (0x6000), a     ; latch the clock
        ld      hl, #0xC000
        ld      b, #0x08        ; clock registers 0x08 (seconds) to 0x0B (day, low byte)
next:
        ld      a, b
        ld      (0x4000), a
        ld      a, (0xA000)
        ld      (hl+), a
        inc     b
        ld      a, b
        cp      a, #0x0C
        jr      NZ, next
        jr      loop
