/* Cliff Hop: GameWorld's homebrew Game Boy side-scrolling platformer (sdcc -msm83, no GBDK).
 *
 * The hero runs right through a level of 100 columns that scrolls (SCX), made of four sections that
 * the seed builds: gaps to jump, raised rocks, beetles that patrol the ground, coins floating in the air.
 * Right/Left walk three tiles a press; A jumps (a fixed arc 3 tiles high): straight up from standing,
 * forward about 3.5 tiles when pressed while the hero is still walking (a running jump). Landing on a beetle from above stomps it (the hero bounces); touching one otherwise,
 * or falling into a gap, costs a life and returns the hero to the last checkpoint flag. Three lives; the
 * game is over when none is left. The goal pole at the level's end starts the next level.
 *
 * Drawing: background tiles for the level (a 32-column ring of the tile map, scrolled with SCX), the
 * window for the two HUD lines at the bottom (the score, then coins, lives, stomps, distance, flags and
 * level), OAM sprites for the hero and the beetles.
 *
 * The GameWorld block (0xC000-0xC0FF) holds what the sandbox reads and the seed it writes; the level's
 * tiles are at 0xC100 (17 rows of 128 bytes, tile numbers; columns 0-99 used).
 */
#include "gb.h"
#include "gb_tiles.h"

#define MODE_BOOT 0
#define MODE_SEED 1
#define MODE_PLAY 2
#define MODE_OVER 3

#define LW 100             /* level width in tiles */
#define LROWS 17           /* level rows (row 17 is the HUD window) */
#define STRIDE 128
#define GROUND 14          /* top row of the ground */
#define HIGH 12            /* top row of a raised rock */
#define SEC_W 22
#define SEC0 5             /* first column of section 0 */
#define GOAL_COL 96
#define SPAWN_MIN 1        /* the hero starts on column 1, 2 or 3 (the seed picks) */
#define MAX_EN 8
#define WALK_FRAMES 24
#define GRAVITY 4          /* 1/16 px per frame per frame */
#define JUMP_V 60          /* 1/16 px per frame */
#define BOUNCE_V 44
#define MAX_FALL 64
#define DIE_FRAMES 45
#define CLEAR_FRAMES 60
#define SAFE_FRAMES 50
#define HUD_TOP 128        /* the window (two HUD lines) covers the screen from here down */

#define rWY   REG(0xFF4A)
#define rWX   REG(0xFF4B)
#define rOBP0 REG(0xFF48)

volatile __at(0xC000) uint8_t gw_mode;
volatile __at(0xC001) uint8_t gw_lives;
volatile __at(0xC002) uint16_t gw_score;
volatile __at(0xC004) uint16_t gw_distance;   /* furthest column reached, over all levels (100 a level) */
volatile __at(0xC006) uint8_t gw_coins;
volatile __at(0xC007) uint8_t gw_stomps;
volatile __at(0xC008) uint8_t gw_checkpoint;  /* checkpoint flags reached in this level (0-3) */
volatile __at(0xC009) uint8_t gw_level;
volatile __at(0xC00A) uint16_t gw_hero_x;     /* pixels from the level's left edge */
volatile __at(0xC00C) uint8_t gw_hero_y;      /* pixels from the top */
volatile __at(0xC00D) uint8_t gw_hero_col;
volatile __at(0xC00E) uint8_t gw_on_ground;
volatile __at(0xC00F) uint8_t gw_over;
volatile __at(0xC010) uint8_t gw_facing;      /* 0 right, 1 left */
volatile __at(0xC011) uint8_t gw_dying;       /* frames left of the hurt pause */
volatile __at(0xC012) uint16_t gw_ticks;
volatile __at(0xC014) uint16_t gw_cam;        /* scroll, pixels */
volatile __at(0xC016) uint8_t gw_safe;        /* frames of safety after a respawn */
volatile __at(0xC017) uint8_t gw_deaths;
volatile __at(0xC018) uint8_t gw_clearing;    /* frames left of the level-clear pause */
volatile __at(0xC019) uint8_t gw_walk;        /* walk frames left */
volatile __at(0xC01A) int16_t gw_vy;          /* 1/16 px per frame, + is down */
volatile __at(0xC01C) uint8_t gw_pending;     /* a button pressed in the air, done on landing */
volatile __at(0xC01D) uint8_t gw_en_count;
volatile __at(0xC01E) uint8_t gw_level_cols;  /* LW */
volatile __at(0xC020) uint16_t en_x[MAX_EN];
volatile __at(0xC030) uint8_t en_y[MAX_EN];
volatile __at(0xC038) uint8_t en_state[MAX_EN]; /* 0 gone, 1 walking, 2+ squashed (frames left) */
volatile __at(0xC040) uint8_t en_dir[MAX_EN];   /* 0 right, 1 left */
volatile __at(0xC048) uint16_t en_min[MAX_EN];
volatile __at(0xC058) uint16_t en_max[MAX_EN];
volatile __at(0xC068) uint16_t en_x0[MAX_EN];
volatile __at(0xC078) uint8_t en_dir0[MAX_EN];
volatile __at(0xC080) uint8_t cp_col[4];         /* checkpoint columns: 0 the start, then sections 1-3 */
volatile __at(0xC0F0) uint16_t gw_seed;
volatile __at(0xC0F2) uint8_t gw_seed_flag;
volatile __at(0xC100) uint8_t lvl[LROWS][STRIDE];

uint16_t rng_state;
uint16_t hero_y16;        /* hero y in 1/16 px */
int8_t hero_vx;
uint8_t prev_pad;
uint8_t drawn_l, drawn_r; /* level columns present in the 32-column ring of the tile map */
uint8_t oam[40];          /* hero + 8 beetles, 4 bytes each, copied to OAM in VBlank */
uint8_t hud_dirty;        /* a HUD figure changed this frame: the HUD is queued once, after the frame */

static uint8_t rng(void) {
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return (uint8_t)rng_state;
}

static uint8_t below(uint8_t n) {   /* 0..n-1 */
    return (uint8_t)(rng() % n);
}

/* ---------------------------------------------------------------- drawing */

static void frame_wait(void) {
    uint8_t i;
    volatile uint8_t *dst = (volatile uint8_t *)0xFE00;
    gb_vbl_done = 0;
    while (!gb_vbl_done) {
        __asm__("halt");
        __asm__("nop");
    }
    for (i = 0; i < 36; i++) dst[i] = oam[i];
    rSCX = (uint8_t)gw_cam;
    gb_vq_flush();
}

static void draw_column(uint8_t c, uint8_t queued) {
    uint8_t y, m = (uint8_t)(c & 31);
    for (y = 0; y < LROWS; y++) {
        if (queued) gb_queue(m, y, lvl[y][c]);
        else gb_put(m, y, lvl[y][c]);
    }
}

static void set_tile(uint8_t c, uint8_t r, uint8_t t) {
    lvl[r][c] = t;
    if (c >= drawn_l && c <= drawn_r) gb_queue((uint8_t)(c & 31), r, t);
}

/* Keeps the columns on screen (and one beyond) in the tile map ring: at most one column a frame. */
static void scroll_columns(void) {
    uint8_t left = (uint8_t)(gw_cam >> 3), right = (uint8_t)(left + 20);
    if (right >= LW) right = LW - 1;
    if (right > drawn_r) {
        drawn_r++;
        draw_column(drawn_r, 1);
        if (drawn_r - drawn_l > 31) drawn_l = (uint8_t)(drawn_r - 31);
    } else if (left < drawn_l) {
        drawn_l--;
        draw_column(drawn_l, 1);
        if (drawn_r - drawn_l > 31) drawn_r = (uint8_t)(drawn_l + 31);
    }
}

static void hud(uint8_t queued) {       /* window row 0 (map row 32): the score; row 1: the rest */
    gb_number(7, 32, gw_score, 5, queued);
    gb_number(1, 33, gw_coins, 2, queued);
    gb_number(5, 33, gw_lives, 1, queued);
    gb_number(8, 33, gw_stomps, 2, queued);
    gb_number(12, 33, gw_distance, 3, queued);
    gb_number(17, 33, gw_checkpoint, 1, queued);
    gb_number(19, 33, gw_level, 1, queued);
}

static void hud_frame(void) {
    uint8_t x;
    for (x = 0; x < 20; x++) {
        gb_put(x, 32, T_SPACE);
        gb_put(x, 33, T_SPACE);
    }
    gb_text(1, 32, "SCORE", 0);
    gb_put(0, 33, T_HUD_COIN);
    gb_put(4, 33, T_HUD_HEART);
    gb_put(7, 33, T_HUD_BOOT);
    gb_put(11, 33, T_D);
    gb_put(16, 33, T_FLAG);
    gb_put(18, 33, T_L);
}

static void sprite(uint8_t i, uint16_t x, uint8_t y, uint8_t tile, uint8_t flip) {
    uint8_t *s = oam + (i << 2);
    if (x + 8 < gw_cam || x >= gw_cam + 160 || y + 8 > HUD_TOP) {   /* never over the HUD */
        s[0] = 0;
        return;
    }
    s[0] = (uint8_t)(y + 16);
    s[1] = (uint8_t)(x - gw_cam + 8);
    s[2] = tile;
    s[3] = flip ? 0x20 : 0;
}

static void draw_sprites(void) {
    uint8_t i, tile;
    if (gw_dying) tile = T_HERO_HURT;
    else if (!gw_on_ground) tile = T_HERO_JUMP;
    else if (gw_walk && (gw_walk & 4)) tile = T_HERO_WALK;
    else tile = T_HERO;
    if (gw_safe && (gw_safe & 4)) oam[0] = 0;
    else sprite(0, gw_hero_x, gw_hero_y, tile, gw_facing);
    for (i = 0; i < MAX_EN; i++) {
        if (i >= gw_en_count || en_state[i] == 0) {
            oam[(i + 1) << 2] = 0;
            continue;
        }
        tile = en_state[i] >= 2 ? T_BEETLE_FLAT : ((gw_ticks & 8) ? T_BEETLE_WALK : T_BEETLE);
        sprite((uint8_t)(i + 1), en_x[i], en_y[i], tile, en_dir[i]);
    }
}

extern uint8_t gb_vq_len;

static void gw_wait_banner(void) {   /* the banner's last tiles are on screen before the game says so */
    frame_wait();
}

/* Four rows across the screen; written a few columns a frame so that each flush fits in a VBlank. */
static void banner(const char *a, const char *b) {
    uint8_t x, base = (uint8_t)(gw_cam >> 3), c, la = 0, lb = 0;
    while (a[la]) la++;
    while (b[lb]) lb++;
    for (x = 0; x < 21; x++) {
        c = (uint8_t)((base + x) & 31);
        if (gb_vq_len > 8) gb_wait_vbl();
        gb_queue(c, 6, T_ROCK);
        gb_queue(c, 7, (x >= 4 && x - 4 < la) ? gb_char(a[x - 4]) : T_SPACE);
        gb_queue(c, 8, (x >= 4 && x - 4 < lb) ? gb_char(b[x - 4]) : T_SPACE);
        gb_queue(c, 9, T_ROCK);
    }
}

/* ---------------------------------------------------------------- the level */

static uint8_t solid(uint8_t t) {
    return t >= T_GRASS && t <= T_BRICK;
}

static void ground_col(uint8_t c, uint8_t top) {
    uint8_t y;
    for (y = 0; y < LROWS; y++) lvl[y][c] = T_SKY;
    if (!top) return;
    lvl[top][c] = T_GRASS;
    for (y = (uint8_t)(top + 1); y < LROWS; y++) lvl[y][c] = T_DIRT;
    if (top == HIGH) lvl[top][c] = T_ROCK;
}

static void add_enemy(uint8_t c0, uint8_t c1) {
    uint8_t i = gw_en_count;
    uint16_t span;
    if (i >= MAX_EN) return;
    en_min[i] = (uint16_t)c0 << 3;
    en_max[i] = (uint16_t)c1 << 3;
    span = en_max[i] - en_min[i];
    en_x0[i] = en_min[i] + (uint16_t)(below((uint8_t)(span >> 2)) << 2);
    en_dir0[i] = rng() & 1;
    en_y[i] = (GROUND - 1) * 8;
    gw_en_count++;
}

static void coins_at(uint8_t c, uint8_t n, uint8_t row) {
    while (n--) lvl[row][c++] = T_COIN;
}

/* One section: flat stretches between features the seed picks. */
static void build_section(uint8_t s) {
    uint8_t c = (uint8_t)(SEC0 + s * SEC_W), end = (uint8_t)(c + SEC_W), f, w, i, enemies = 0;
    uint8_t last = 9, n = 0, stop = s ? end : (uint8_t)(end - 3);
    c = (uint8_t)(c + 1 + below(2));
    while (c + 7 <= stop) {
        /* section 1 is gaps and rocks, then a beetle before its flag; the others open with two beetle runs */
        if (s == 0) do { f = below(5); } while (f == last || f == 1 || f == 3);
        else if (n < 2) f = 1;
        else do { f = below(5); } while (f == last || f == 1);
        n++;
        last = f;
        switch (f) {
        case 0:   /* a gap, two wide (three in section 1), two coins above it */
            w = s ? 2 : 3;
            for (i = 0; i < w; i++) ground_col((uint8_t)(c + i), 0);
            lvl[GROUND - 3][c + 1] = T_COIN;   /* out of reach from the near edge: a running jump */
            lvl[GROUND - 4][c + 1] = T_COIN;
            c = (uint8_t)(c + w);
            break;
        case 1:   /* a beetle's run, flat */
            w = (uint8_t)(6 + below(2));
            add_enemy((uint8_t)(c + 1), (uint8_t)(c + w - 1));
            enemies++;
            c = (uint8_t)(c + w);
            break;
        case 2:   /* a raised rock, coins on top */
            w = (uint8_t)(2 + below(2));
            for (i = 0; i < w; i++) ground_col((uint8_t)(c + i), HIGH);
            coins_at(c, w, HIGH - 1);
            c = (uint8_t)(c + w);
            break;
        case 3:   /* coins in the air over flat ground, bricks above */
            coins_at((uint8_t)(c + 1), 2, GROUND - 3);
            if (rng() & 1) for (i = 0; i < 3; i++) lvl[GROUND - 6][c + 1 + i] = T_BRICK;
            c = (uint8_t)(c + 5);
            break;
        default:  /* a wide gap with a rock pillar in the middle */
            ground_col(c, 0);
            ground_col((uint8_t)(c + 1), HIGH + 1);
            lvl[HIGH][c + 1] = T_COIN;
            ground_col((uint8_t)(c + 2), 0);
            c = (uint8_t)(c + 3);
            break;
        }
        c = (uint8_t)(c + 2 + below(2));   /* flat ground after every feature */
    }
    if (s == 0) add_enemy((uint8_t)(c + 1), (uint8_t)(end - 2));   /* patrols the flat before the flag */
}

static void build_level(void) {
    uint8_t c, y, s;
    gw_en_count = 0;
    for (c = 0; c < LW; c++) {
        ground_col(c, GROUND);
        if (below(4) == 0) lvl[GROUND - 1][c] = T_BUSH;
    }
    for (c = 0; c < LW; c += (uint8_t)(5 + below(5))) {
        y = (uint8_t)(1 + below(4));
        if (c + 1 < LW) {
            lvl[y][c] = T_CLOUD_L;
            lvl[y][c + 1] = T_CLOUD_R;
        }
    }
    for (s = 0; s < 4; s++) build_section(s);
    for (s = 1; s < 4; s++) {
        c = (uint8_t)(SEC0 + s * SEC_W);
        cp_col[s] = c;
        ground_col(c, GROUND);
        ground_col((uint8_t)(c + 1), GROUND);
        lvl[GROUND - 1][c] = T_FLAG;
        lvl[GROUND - 2][c] = T_SKY;
    }
    for (c = SEC0 + 4 * SEC_W; c < LW; c++) ground_col(c, GROUND);
    lvl[GROUND - 1][GOAL_COL] = T_GOAL_POLE;
    for (y = GROUND - 6; y < GROUND - 1; y++) lvl[y][GOAL_COL] = T_GOAL;
    lvl[GROUND - 6][GOAL_COL + 1] = T_GOAL_FLAG;
    lvl[GROUND - 7][GOAL_COL] = T_GOAL;
    cp_col[0] = (uint8_t)(SPAWN_MIN + below(3));   /* last, so the level above is the same for a seed */
}

/* ---------------------------------------------------------------- the hero */

static uint8_t solid_px(int16_t x, int16_t y) {
    if (x < 0 || x >= LW * 8) return 1;
    if (y < 0 || y >= LROWS * 8) return 0;
    return solid(lvl[(uint8_t)(y >> 3)][(uint8_t)(x >> 3)]);
}

static uint8_t blocked_x(int16_t x) {
    int16_t y = (int16_t)gw_hero_y;
    if (x < 0) return 1;             /* the level's left edge */
    return solid_px(x + 1, y) || solid_px(x + 6, y) || solid_px(x + 1, y + 7) || solid_px(x + 6, y + 7);
}

static uint8_t floor_under(void) {
    int16_t x = (int16_t)gw_hero_x, y = (int16_t)gw_hero_y + 8;
    return solid_px(x + 1, y) || solid_px(x + 6, y);
}

static void place_hero(uint8_t col) {
    gw_hero_x = (uint16_t)col << 3;
    gw_hero_y = (GROUND - 1) * 8;
    hero_y16 = (uint16_t)gw_hero_y << 4;
    gw_vy = 0;
    hero_vx = 0;
    gw_walk = 0;
    gw_on_ground = 1;
    gw_facing = 0;
    gw_pending = 0;
}

static void reset_enemies(void) {
    uint8_t i;
    for (i = 0; i < gw_en_count; i++) {
        en_x[i] = en_x0[i];
        en_dir[i] = en_dir0[i];
        en_state[i] = 1;
    }
}

static void collect(void) {
    uint8_t dx, dy, c, r;
    for (dy = 1; dy <= 6; dy += 5)
        for (dx = 1; dx <= 6; dx += 5) {
            c = (uint8_t)((gw_hero_x + dx) >> 3);
            r = (uint8_t)((gw_hero_y + dy) >> 3);
            if (r < LROWS && c < LW && lvl[r][c] == T_COIN) {
                set_tile(c, r, T_SKY);
                gw_coins++;
                gw_score += 10;
                hud_dirty = 1;
            }
        }
}

static void camera(void) {
    int16_t cam = (int16_t)gw_hero_x - 64;
    if (cam < 0) cam = 0;
    if (cam > LW * 8 - 160) cam = LW * 8 - 160;
    gw_cam = (uint16_t)cam;
}

static void hurt(void) {
    if (gw_dying || gw_safe) return;
    gw_dying = DIE_FRAMES;
}

static void start_action(uint8_t pressed) {
    if (pressed & J_A) {
        /* a running jump carries the walk on; from standing the hero jumps straight up */
        gw_vy = -JUMP_V;
        gw_on_ground = 0;
        if (!gw_walk) hero_vx = 0;
        gw_walk = 0;
    } else if (pressed & (J_LEFT | J_RIGHT)) {
        gw_facing = (pressed & J_LEFT) ? 1 : 0;
        hero_vx = gw_facing ? -1 : 1;
        gw_walk = WALK_FRAMES;
    }
}

static void move_x(void) {
    int16_t nx;
    if (!hero_vx) return;
    nx = (int16_t)gw_hero_x;
    if (hero_vx > 0) nx++;
    else nx--;
    if (blocked_x(nx)) return;   /* pushing against a wall: the walk (and a running jump) goes on */
    gw_hero_x = (uint16_t)nx;
}

static void move_y(void) {
    uint8_t target;
    int16_t hx = (int16_t)gw_hero_x;
    gw_vy += GRAVITY;
    if (gw_vy > MAX_FALL) gw_vy = MAX_FALL;
    hero_y16 = (uint16_t)((int16_t)hero_y16 + gw_vy);
    target = (uint8_t)(hero_y16 >> 4);
    while (gw_hero_y != target) {
        if (gw_vy > 0) {
            if (solid_px(hx + 1, (int16_t)gw_hero_y + 8) || solid_px(hx + 6, (int16_t)gw_hero_y + 8)) {
                hero_y16 = (uint16_t)gw_hero_y << 4;
                gw_vy = 0;
                gw_on_ground = 1;
                hero_vx = 0;
                gw_walk = 0;
                return;
            }
            gw_hero_y++;
        } else {
            if (solid_px(hx + 1, (int16_t)gw_hero_y - 1) || solid_px(hx + 6, (int16_t)gw_hero_y - 1)) {
                hero_y16 = (uint16_t)gw_hero_y << 4;
                gw_vy = 0;
                return;
            }
            gw_hero_y--;
        }
    }
}

static void enemies_frame(void) {
    uint8_t i, hy = gw_hero_y, ey;
    uint16_t hx = gw_hero_x, ex;
    for (i = 0; i < gw_en_count; i++) {
        if (en_state[i] == 0) continue;
        if (en_state[i] >= 2) {
            if (++en_state[i] > 30) en_state[i] = 0;
            continue;
        }
        if (gw_ticks & 1) {
            if (en_dir[i]) {
                if (en_x[i] <= en_min[i]) en_dir[i] = 0;
                else en_x[i]--;
            } else {
                if (en_x[i] >= en_max[i]) en_dir[i] = 1;
                else en_x[i]++;
            }
        }
        if (gw_dying) continue;
        ex = en_x[i];
        ey = en_y[i];
        if (hx + 7 <= ex || ex + 7 <= hx || hy + 7 <= ey || ey + 7 <= hy) continue;
        if (gw_vy > 0 && hy + 4 <= ey) {
            en_state[i] = 2;
            gw_stomps++;
            gw_score += 50;
            gw_vy = -BOUNCE_V;
            hud_dirty = 1;
        } else {
            hurt();
        }
    }
}

static void respawn(void) {
    place_hero(cp_col[gw_checkpoint]);
    reset_enemies();
    gw_safe = SAFE_FRAMES;
    camera();
}

static void redraw_view(void) {
    uint8_t c, first = (uint8_t)(gw_cam >> 3);
    drawn_l = first;
    drawn_r = (uint8_t)(first + 20);
    if (drawn_r >= LW) drawn_r = LW - 1;
    for (c = drawn_l; c <= drawn_r; c++) draw_column(c, 0);
}

static void setup_level(void) {
    gb_lcd_off();
    build_level();
    gw_checkpoint = 0;
    place_hero(cp_col[0]);
    if (gw_level == 1) gw_distance = cp_col[0];
    reset_enemies();
    camera();
    redraw_view();
    hud_frame();
    hud_dirty = 0;
    hud(0);
    draw_sprites();
    gb_lcd_on();
    rLCDC = 0xF3;         /* + sprites, window at 0x9C00 */
    rOBP0 = 0xE4;
    rWY = HUD_TOP;
    rWX = 7;
}

static void progress(void) {
    uint8_t col = (uint8_t)((gw_hero_x + 4) >> 3);
    uint16_t d = (uint16_t)(gw_level - 1) * LW + col;
    gw_hero_col = col;
    if (d > gw_distance) {
        gw_distance = d;
        hud_dirty = 1;
    }
    if (gw_checkpoint < 3 && col >= cp_col[gw_checkpoint + 1]) {
        gw_checkpoint++;
        gw_score += 100;
        set_tile(cp_col[gw_checkpoint], GROUND - 1, T_FLAG_DONE);
        hud_dirty = 1;
    }
    if (col >= GOAL_COL && !gw_clearing) {
        gw_clearing = CLEAR_FRAMES;
        gw_level++;                 /* the next level is built when the banner's pause ends */
        gw_score += 500;
        hud_dirty = 1;
        banner("LEVEL CLEAR!", "WELL HOPPED");
    }
}

static void play_frame(void) {
    uint8_t pad = gb_joypad(), pressed = pad & (uint8_t)~prev_pad;
    prev_pad = pad;
    if (gw_clearing) {
        if (--gw_clearing == 0) setup_level();
        return;
    }
    if (gw_dying) {
        if (--gw_dying == 0) {
            gw_deaths++;
            gw_lives--;
            hud(1);
            hud_dirty = 0;
            if (!gw_lives) {
                banner("GAME OVER", "NO LIVES LEFT");
                gw_wait_banner();
                gw_over = 1;
                gw_mode = MODE_OVER;
                return;
            }
            respawn();
        }
        enemies_frame();
        return;
    }
    if (gw_safe) gw_safe--;
    pressed &= (J_A | J_LEFT | J_RIGHT);
    if (gw_on_ground) {
        if (gw_pending) {
            pressed = gw_pending;
            gw_pending = 0;
        }
        if (pressed) start_action(pressed);
    } else if (pressed) {
        gw_pending = pressed & J_A ? J_A : pressed;
    }
    move_x();
    if (gw_on_ground) {
        if (gw_walk && --gw_walk == 0) hero_vx = 0;
        if (!gw_walk) hero_vx = 0;
        if (!floor_under()) {
            gw_on_ground = 0;
            gw_vy = 0;
        }
    }
    if (!gw_on_ground) move_y();
    if (gw_hero_y >= LROWS * 8 - 4) {
        gw_safe = 0;
        hurt();
    }
    collect();
    enemies_frame();
    progress();
    camera();
}

static void new_game(void) {
    uint8_t i;
    rng_state = gw_seed ^ 0x5C3Du;
    if (rng_state == 0) rng_state = 0x1F2Eu;
    for (i = 0; i < 8; i++) rng();
    gw_lives = 3;
    gw_score = 0;
    gw_coins = 0;
    gw_stomps = 0;
    gw_level = 1;
    gw_distance = 0;                 /* the start column once the level is built */
    gw_over = 0;
    gw_dying = 0;
    gw_safe = 0;
    gw_deaths = 0;
    gw_clearing = 0;
    gw_ticks = 0;
    gw_level_cols = LW;
    for (i = 0; i < 40; i++) oam[i] = 0;
    setup_level();
    frame_wait();
    frame_wait();
    prev_pad = gb_joypad();
    gw_mode = MODE_PLAY;
}

static void title(void) {
    uint8_t i;
    volatile uint8_t *o = (volatile uint8_t *)0xFE00;
    gb_lcd_off();
    for (i = 0; i < 160; i++) o[i] = 0;
    gb_load_tiles();
    gb_clear(T_SKY);
    for (i = 0; i < 20; i++) {
        gb_put(i, 14, T_GRASS);
        gb_put(i, 15, T_DIRT);
        gb_put(i, 16, T_DIRT);
        gb_put(i, 17, T_DIRT);
    }
    gb_text(5, 6, "CLIFF HOP", 0);
    gb_text(5, 9, "GAMEWORLD", 0);
    gb_lcd_on();
}

void main(void) {
    title();
    gw_mode = MODE_SEED;
    while (!gw_seed_flag) gb_wait_vbl();
    new_game();
    for (;;) {
        frame_wait();
        if (gw_mode != MODE_PLAY) continue;
        gw_ticks++;
        play_frame();
        if (hud_dirty) {
            hud_dirty = 0;
            hud(1);
        }
        scroll_columns();
        draw_sprites();
    }
}
