/* gb.c: see gb.h. */
#include "gb.h"
#include "gb_tiles.h"

uint8_t gb_vq_len;
uint8_t gb_vq[GB_QUEUE_MAX * 3];   /* (address low, address high, tile) triples */

void gb_wait_vbl(void) {
    gb_vbl_done = 0;
    while (!gb_vbl_done) {
        __asm__("halt");
        __asm__("nop");
    }
    gb_vq_flush();
}

void gb_lcd_off(void) {
    if (!(rLCDC & 0x80)) return;
    while (rLY < 144) { }
    rLCDC = 0x00;
    gb_vq_flush();  /* tiles queued for the old screen are written first, then drawing goes direct */
}

void gb_lcd_on(void) {
    rBGP = 0xE4;
    rSCX = 0;
    rSCY = 0;
    rLCDC = 0x91;
}

uint8_t gb_joypad(void) {
    uint8_t dirs, buttons;
    rP1 = 0x20;
    dirs = rP1; dirs = rP1;
    rP1 = 0x10;
    buttons = rP1; buttons = rP1; buttons = rP1; buttons = rP1;
    rP1 = 0x30;
    return (uint8_t)(((~dirs & 0x0F) << 4) | (~buttons & 0x0F));
}

void gb_load_tiles(void) {
    uint8_t *dst = (uint8_t *)0x8000;
    const uint8_t *src = gb_tile_data;
    uint16_t n = GB_TILE_COUNT * 16u;
    while (n--) *dst++ = *src++;
}

void gb_clear(uint8_t tile) {
    uint8_t x, y;
    for (y = 0; y < SCREEN_H; y++)
        for (x = 0; x < SCREEN_W; x++)
            gb_put(x, y, tile);
}

void gb_put(uint8_t x, uint8_t y, uint8_t tile) {
    *(uint8_t *)(0x9800u + ((uint16_t)y << 5) + x) = tile;
}

void gb_queue(uint8_t x, uint8_t y, uint8_t tile) {
    uint16_t addr;
    uint8_t *slot;
    if (gb_vq_len >= GB_QUEUE_MAX) gb_wait_vbl();
    addr = 0x9800u + ((uint16_t)y << 5) + x;
    slot = gb_vq + gb_vq_len * 3;
    slot[0] = (uint8_t)addr;
    slot[1] = (uint8_t)(addr >> 8);
    slot[2] = tile;
    gb_vq_len++;
}

uint8_t gb_char(char c) {
    if (c >= '0' && c <= '9') return (uint8_t)(T_CH_0 + (c - '0'));
    if (c >= 'A' && c <= 'Z') return (uint8_t)(T_A + (c - 'A'));
    switch (c) {
    case ':': return T_COLON;
    case '-': return T_DASH;
    case '/': return T_SLASH;
    case '!': return T_BANG;
    case '.': return T_DOT;
    default: return T_SPACE;
    }
}

void gb_text(uint8_t x, uint8_t y, const char *text, uint8_t queued) {
    while (*text) {
        if (queued) gb_queue(x, y, gb_char(*text));
        else gb_put(x, y, gb_char(*text));
        x++;
        text++;
    }
}

void gb_number(uint8_t x, uint8_t y, uint16_t value, uint8_t digits, uint8_t queued) {
    x += digits;
    while (digits--) {
        x--;
        if (queued) gb_queue(x, y, (uint8_t)(T_CH_0 + value % 10));
        else gb_put(x, y, (uint8_t)(T_CH_0 + value % 10));
        value /= 10;
    }
}
