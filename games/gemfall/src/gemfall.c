/* Gem Fall: GameWorld's homebrew Game Boy falling-gem puzzle (sdcc -msm83, no GBDK).
 *
 * A column of three gems falls into a well 6 wide and 13 deep. Left and Right move it one column, A
 * cycles its gems (the bottom gem goes to the top), Down (a fresh press) drops it fast, three rows a
 * press. There are four kinds of gem. When the column lands, every line of four or more gems of one
 * kind, across, up and down or on a diagonal, vanishes (three in a line do not: a wall of columns
 * stacked blind seldom lines up four); the gems above fall into the gaps, and lines they make vanish in
 * turn: a chain. A wave of N gems scores N x 10 x its place in the chain (1, 2, 3...). Every 12 gems
 * cleared the level rises and the columns fall faster. If a column lands with a gem still above the well, or a new
 * column has no room, the game is over.
 *
 * The GameWorld block (0xC000-0xC0FF) holds what the sandbox reads and the seed it writes; the well
 * itself is at 0xC100 (13 rows x 6 bytes, top row first: 0 empty, 1-4 the gem's kind).
 */
#include "gb.h"
#include "gb_tiles.h"

#define MODE_BOOT 0
#define MODE_SEED 1
#define MODE_PLAY 2
#define MODE_OVER 3

#define PHASE_FALL 0
#define PHASE_FLASH 1

#define WELL_W 6
#define WELL_H 13
#define KINDS 4
#define RUN 4             /* gems of one kind in a line that vanish */
#define WELL_X 2           /* screen column of well column 0 */
#define WELL_Y 4           /* screen row of well row 0 */
#define START_X 2
#define FLASH_FRAMES 18
#define LEVEL_GEMS 12
#define DROP_ROWS 3        /* rows a Down press drops (one a frame while held, at most this many) */

volatile __at(0xC000) uint8_t gw_mode;
volatile __at(0xC002) uint16_t gw_score;
volatile __at(0xC004) uint16_t gw_cleared;    /* gems cleared in this game */
volatile __at(0xC006) uint8_t gw_best_chain;  /* longest chain of this game (1: a single clear) */
volatile __at(0xC007) uint8_t gw_pieces;      /* columns landed */
volatile __at(0xC008) uint8_t gw_level;
volatile __at(0xC009) uint8_t gw_height;      /* rows of the well holding a gem, from the bottom */
volatile __at(0xC00A) uint8_t gw_piece_x;     /* falling column's well column */
volatile __at(0xC00B) int8_t gw_piece_y;      /* well row of its bottom gem (negative: above the well) */
volatile __at(0xC00C) uint8_t gw_piece[3];    /* its gems, top to bottom */
volatile __at(0xC00F) uint8_t gw_next[3];     /* the next column's gems */
volatile __at(0xC012) uint16_t gw_ticks;
volatile __at(0xC014) uint8_t gw_phase;       /* 0: a column is falling, 1: gems are vanishing */
volatile __at(0xC015) uint8_t gw_chain;       /* waves in the current landing so far */
volatile __at(0xC016) uint8_t gw_period;      /* frames a row at this level */
volatile __at(0xC017) uint8_t gw_last_clear;  /* gems of the last wave */
volatile __at(0xC018) uint8_t gw_chains;      /* landings that set off a chain (two waves or more) */
volatile __at(0xC0F0) uint16_t gw_seed;
volatile __at(0xC0F2) uint8_t gw_seed_flag;
volatile __at(0xC100) uint8_t well[WELL_H][WELL_W];

static const uint8_t GEM_TILE[KINDS + 1] = {T_HOLE, T_GEM_RUBY, T_GEM_ORB, T_GEM_BLOCK, T_GEM_STAR};

uint16_t rng_state;
uint8_t marks[WELL_H][WELL_W];
uint8_t shown[WELL_H][WELL_W];   /* the kind each well cell shows (0xFF: a flash), to redraw only changes */
uint8_t prev_pad;
uint8_t fall_timer;
uint8_t drop_left;       /* rows the current Down press may still drop */
uint8_t drop_armed;      /* Down was released since the column appeared */
uint8_t flash_timer;
uint8_t wave_count;

static uint8_t rng(void) {
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return (uint8_t)rng_state;
}

static uint8_t kind(void) {
    return (uint8_t)((rng() & 3) + 1);   /* KINDS is 4 */
}

/* A new column: never three of a kind. */
static void roll_next(void) {
    gw_next[0] = kind();
    gw_next[1] = kind();
    do { gw_next[2] = kind(); } while (gw_next[2] == gw_next[0] && gw_next[2] == gw_next[1]);
}

static void put(uint8_t x, uint8_t y, uint8_t tile, uint8_t queued) {
    if (queued) gb_queue(x, y, tile);
    else gb_put(x, y, tile);
}

static void show_cell(uint8_t x, int8_t y) {
    /* the well's content at (x, y), or the sky above it */
    if (y < 0) {
        if (y >= -3) gb_queue((uint8_t)(WELL_X + x), (uint8_t)(WELL_Y + y), T_SKY);
        return;
    }
    gb_queue((uint8_t)(WELL_X + x), (uint8_t)(WELL_Y + y), GEM_TILE[well[y][x]]);
}

static void show_piece(uint8_t on) {
    uint8_t i;
    int8_t y;
    for (i = 0; i < 3; i++) {
        y = (int8_t)(gw_piece_y - 2 + i);
        if (y < -3) continue;
        if (on) gb_queue((uint8_t)(WELL_X + gw_piece_x), (uint8_t)(WELL_Y + y), GEM_TILE[gw_piece[i]]);
        else show_cell(gw_piece_x, y);
    }
}

static void draw_well(uint8_t queued) {
    uint8_t x, y;
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++) {
            if (queued && shown[y][x] == well[y][x]) continue;
            shown[y][x] = well[y][x];
            put((uint8_t)(WELL_X + x), (uint8_t)(WELL_Y + y), GEM_TILE[well[y][x]], queued);
        }
}

static void draw_next(uint8_t queued) {
    uint8_t i;
    for (i = 0; i < 3; i++) put(16, (uint8_t)(13 + i), GEM_TILE[gw_next[i]], queued);
}

static void draw_hud(uint8_t queued) {
    gb_number(13, 4, gw_score, 5, queued);
    gb_number(15, 6, gw_cleared, 3, queued);
    gb_number(17, 8, gw_chains, 2, queued);
    gb_number(17, 10, gw_level, 1, queued);
}

static void measure_height(void) {
    uint8_t x, y;
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++)
            if (well[y][x]) {
                gw_height = (uint8_t)(WELL_H - y);
                return;
            }
    gw_height = 0;
}

static void set_level(void) {
    gw_level = (uint8_t)(1 + gw_cleared / LEVEL_GEMS);
    if (gw_level > 9) gw_level = 9;
    gw_period = (uint8_t)(gw_level < 7 ? 60 - 8 * (gw_level - 1) : 12);
}

static void game_over(void) {
    uint8_t x;
    gw_mode = MODE_OVER;
    for (x = WELL_X - 1; x <= WELL_X + WELL_W; x++) {
        gb_queue(x, 8, T_INK);
        gb_queue(x, 11, T_INK);
    }
    gb_queue(WELL_X - 1, 9, T_INK);
    gb_queue(WELL_X - 1, 10, T_INK);
    gb_queue(WELL_X + WELL_W, 9, T_INK);
    gb_queue(WELL_X + WELL_W, 10, T_INK);
    gb_text(WELL_X, 9, " GAME ", 1);
    gb_text(WELL_X, 10, " OVER ", 1);
}

static void spawn(void) {
    gw_piece[0] = gw_next[0];
    gw_piece[1] = gw_next[1];
    gw_piece[2] = gw_next[2];
    roll_next();
    draw_next(1);
    gw_piece_x = START_X;
    gw_piece_y = 0;
    fall_timer = 0;
    drop_left = 0;
    drop_armed = 0;
    gw_chain = 0;
    gw_phase = PHASE_FALL;
    if (well[0][START_X]) {
        show_piece(1);
        game_over();
        return;
    }
    show_piece(1);
}

/* Marks every gem in a line of RUN or more of one kind; returns how many are marked. */
static uint8_t find_lines(void) {
    static const int8_t DX[4] = {1, 0, 1, -1};
    static const int8_t DY[4] = {0, 1, 1, 1};
    uint8_t x, y, d, k, n, i, count = 0;
    int8_t cx, cy;
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++)
            marks[y][x] = 0;
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++) {
            k = well[y][x];
            if (!k) continue;
            for (d = 0; d < 4; d++) {
                /* only from the start of a run */
                cx = (int8_t)(x - DX[d]);
                cy = (int8_t)(y - DY[d]);
                if (cx >= 0 && cx < WELL_W && cy >= 0 && well[cy][cx] == k) continue;
                n = 1;
                cx = (int8_t)(x + DX[d]);
                cy = (int8_t)(y + DY[d]);
                while (cx >= 0 && cx < WELL_W && cy < WELL_H && well[cy][cx] == k) {
                    n++;
                    cx = (int8_t)(cx + DX[d]);
                    cy = (int8_t)(cy + DY[d]);
                }
                if (n < RUN) continue;
                cx = (int8_t)x;
                cy = (int8_t)y;
                for (i = 0; i < n; i++) {
                    marks[cy][cx] = 1;
                    cx = (int8_t)(cx + DX[d]);
                    cy = (int8_t)(cy + DY[d]);
                }
            }
        }
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++)
            count += marks[y][x];
    return count;
}

static void flash_marks(uint8_t tile) {
    uint8_t x, y;
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++)
            if (marks[y][x]) {
                shown[y][x] = 0xFF;
                gb_queue((uint8_t)(WELL_X + x), (uint8_t)(WELL_Y + y), tile);
            }
}

/* After a landing or a wave's fall: the next wave, or the next column. */
static void settle(void) {
    wave_count = find_lines();
    measure_height();
    if (wave_count) {
        gw_chain++;
        if (gw_chain == 2) gw_chains++;
        if (gw_chain > gw_best_chain) gw_best_chain = gw_chain;
        gw_last_clear = wave_count;
        gw_phase = PHASE_FLASH;
        flash_timer = FLASH_FRAMES;
        flash_marks(T_FLASH);
        draw_hud(1);
        return;
    }
    spawn();
}

static void collapse(void) {
    uint8_t x, y, w;
    for (x = 0; x < WELL_W; x++) {
        w = WELL_H;
        y = WELL_H;
        while (y--) {
            if (marks[y][x] || !well[y][x]) continue;
            w--;
            well[w][x] = well[y][x];
        }
        while (w--) well[w][x] = 0;
    }
}

static void flash_frame(void) {
    if (--flash_timer) {
        if (flash_timer == 12 || flash_timer == 6) flash_marks(T_FLASH_2);
        else if (flash_timer == 9 || flash_timer == 3) flash_marks(T_FLASH);
        return;
    }
    gw_score += (uint16_t)wave_count * 10u * gw_chain;
    gw_cleared += wave_count;
    set_level();
    draw_hud(1);
    collapse();
    draw_well(1);
    settle();
}

static void land(void) {
    uint8_t i;
    int8_t y;
    gw_pieces++;
    for (i = 0; i < 3; i++) {
        y = (int8_t)(gw_piece_y - 2 + i);
        if (y < 0) {
            game_over();
            return;
        }
        well[y][gw_piece_x] = gw_piece[i];
        shown[y][gw_piece_x] = gw_piece[i];
    }
    settle();
}

static uint8_t free_at(uint8_t x, int8_t bottom) {
    if (x >= WELL_W || bottom >= WELL_H) return 0;
    if (bottom >= 0 && well[bottom][x]) return 0;
    if (bottom >= 1 && well[bottom - 1][x]) return 0;
    if (bottom >= 2 && well[bottom - 2][x]) return 0;
    return 1;
}

/* One row down, or land. Returns 1 when it landed. */
static uint8_t fall(void) {
    if (free_at(gw_piece_x, (int8_t)(gw_piece_y + 1))) {
        show_piece(0);
        gw_piece_y++;
        show_piece(1);
        return 0;
    }
    land();
    return 1;
}

static void play_frame(void) {
    uint8_t pad = gb_joypad(), pressed = pad & (uint8_t)~prev_pad, t;
    prev_pad = pad;
    if (pressed & (J_LEFT | J_RIGHT)) {
        uint8_t x = (pressed & J_LEFT) ? (uint8_t)(gw_piece_x - 1) : (uint8_t)(gw_piece_x + 1);
        if (free_at(x, gw_piece_y)) {
            show_piece(0);
            gw_piece_x = x;
            show_piece(1);
        }
    }
    if (pressed & J_A) {
        t = gw_piece[2];
        gw_piece[2] = gw_piece[1];
        gw_piece[1] = gw_piece[0];
        gw_piece[0] = t;
        show_piece(1);
    }
    if (!(pad & J_DOWN)) {
        drop_armed = 1;
        drop_left = 0;
    } else if ((pressed & J_DOWN) && drop_armed) {
        drop_left = DROP_ROWS;
    }
    if (drop_left) {
        drop_left--;
        fall_timer = 0;
        fall();
        return;
    }
    if (++fall_timer >= gw_period) {
        fall_timer = 0;
        fall();
    }
}

static void draw_frame(void) {
    uint8_t x, y;
    gb_clear(T_BACK);
    for (y = 0; y < WELL_Y; y++)
        for (x = 0; x < WELL_W; x++)
            gb_put((uint8_t)(WELL_X + x), y, y == 0 ? T_BACK : T_SKY);
    for (y = WELL_Y; y < WELL_Y + WELL_H; y++) {
        gb_put(WELL_X - 1, y, T_WALL_L);
        gb_put(WELL_X + WELL_W, y, T_WALL_R);
    }
    gb_put(WELL_X - 1, WELL_Y + WELL_H, T_CORNER_L);
    gb_put(WELL_X + WELL_W, WELL_Y + WELL_H, T_CORNER_R);
    for (x = 0; x < WELL_W; x++) gb_put((uint8_t)(WELL_X + x), WELL_Y + WELL_H, T_BASE);
    /* the side panel */
    for (y = 1; y < 17; y++)
        for (x = 10; x < 20; x++)
            gb_put(x, y, T_SPACE);
    for (x = 10; x < 20; x++) {
        gb_put(x, 0, T_PANEL_T);
        gb_put(x, 17, T_PANEL_B);
    }
    gb_text(10, 1, "GEM FALL", 0);
    gb_text(10, 3, "SCORE", 0);
    gb_text(10, 6, "GEMS", 0);
    gb_text(10, 8, "CHAINS", 0);
    gb_text(10, 10, "LEVEL", 0);
    gb_text(10, 13, "NEXT", 0);
}

static void new_game(void) {
    uint8_t i, x, y;
    rng_state = gw_seed ^ 0x6A3Bu;
    if (rng_state == 0) rng_state = 0x1F2Eu;
    for (i = 0; i < 8; i++) rng();
    for (y = 0; y < WELL_H; y++)
        for (x = 0; x < WELL_W; x++)
            well[y][x] = 0;
    gw_score = 0;
    gw_cleared = 0;
    gw_best_chain = 0;
    gw_chains = 0;
    gw_pieces = 0;
    gw_ticks = 0;
    gw_height = 0;
    gw_last_clear = 0;
    set_level();
    gb_lcd_off();
    draw_frame();
    draw_well(0);
    roll_next();
    draw_hud(0);
    spawn();                       /* queued tiles: written at the first VBlank below */
    gb_lcd_on();
    gb_wait_vbl();
    gb_wait_vbl();
    prev_pad = gb_joypad();
    gw_mode = MODE_PLAY;
}

static void title(void) {
    gb_lcd_off();
    gb_load_tiles();
    gb_clear(T_BACK);
    gb_text(6, 7, "GEM FALL", 0);
    gb_text(5, 10, "GAMEWORLD", 0);
    gb_lcd_on();
}

void main(void) {
    title();
    gw_mode = MODE_SEED;
    while (!gw_seed_flag) gb_wait_vbl();
    new_game();
    for (;;) {
        gb_wait_vbl();
        if (gw_mode != MODE_PLAY) continue;
        gw_ticks++;
        if (gw_phase == PHASE_FLASH) {
            prev_pad = gb_joypad();
            flash_frame();
        } else {
            play_frame();
        }
    }
}
