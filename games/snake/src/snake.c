/* Pocket Snake: GameWorld's homebrew Game Boy snake (sdcc -msm83, no GBDK).
 *
 * The snake moves by itself, one cell every `speed` frames (10 at the start, one frame faster every
 * 3 apples, down to 5); the D-pad turns it (never straight back). An apple makes it one cell longer and
 * scores 1; the next lands at least 8 cells (across plus down) from the head. Running into a wall or
 * into itself ends the game.
 *
 * The GameWorld block (0xC000-0xC0FF) holds what the sandbox reads and the seed it writes; see the
 * manifest's gameboy.fields. The body and the field follow from 0xC100 (below); C globals from 0xC500. The game waits in MODE_SEED until the sandbox sets gw_seed_flag, then seeds
 * its generator from gw_seed: the same seed gives the same apples.
 */
#include "gb.h"
#include "gb_tiles.h"

#define MODE_BOOT 0
#define MODE_SEED 1
#define MODE_PLAY 2
#define MODE_OVER 3
#define MODE_WON 4

#define FIELD_W 18
#define FIELD_H 15
#define FIELD_X 1           /* screen column of field x = 0 */
#define FIELD_Y 2           /* screen row of field y = 0 */

#define DIR_RIGHT 0
#define DIR_DOWN 1
#define DIR_LEFT 2
#define DIR_UP 3

#define START_SPEED 10
#define MIN_SPEED 5
#define APPLE_DISTANCE 8  /* an apple lands at least this many cells (across plus down) from the head */

volatile __at(0xC000) uint8_t gw_mode;
volatile __at(0xC001) uint8_t gw_length;
volatile __at(0xC002) uint16_t gw_score;
volatile __at(0xC004) uint8_t gw_head_x;
volatile __at(0xC005) uint8_t gw_head_y;
volatile __at(0xC006) uint8_t gw_apple_x;
volatile __at(0xC007) uint8_t gw_apple_y;
volatile __at(0xC008) uint8_t gw_direction;
volatile __at(0xC009) uint8_t gw_speed;
volatile __at(0xC00A) uint16_t gw_ticks;
volatile __at(0xC00C) uint8_t gw_cause;      /* 0 alive, 1 wall, 2 itself */
volatile __at(0xC0F0) uint16_t gw_seed;
volatile __at(0xC0F2) uint8_t gw_seed_flag;

static const int8_t DX[4] = {1, 0, -1, 0};
static const int8_t DY[4] = {0, 1, 0, -1};
static const uint8_t HEAD_TILE[4] = {T_HEAD_R, T_HEAD_D, T_HEAD_L, T_HEAD_U};

/* The body (a ring: the head at body_x/body_y[head], the tail `length - 1` before it) and the field
 * (1 where the snake is), at fixed addresses so that tools can read them. */
volatile __at(0xC100) uint8_t body_x[256];
volatile __at(0xC200) uint8_t body_y[256];
volatile __at(0xC300) uint8_t occupied[FIELD_H][FIELD_W];
volatile __at(0xC40F) uint8_t head;
uint8_t next_dir;
uint8_t move_timer;
uint16_t rng_state;

static uint8_t rng(void) {
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return (uint8_t)rng_state;
}

static void cell(uint8_t x, uint8_t y, uint8_t tile, uint8_t queued) {
    if (queued) gb_queue(FIELD_X + x, FIELD_Y + y, tile);
    else gb_put(FIELD_X + x, FIELD_Y + y, tile);
}

/* A new apple lands on a free cell at least APPLE_DISTANCE cells (across plus down) from the head, so
 * that every apple has to be steered to; if 64 draws find no such cell, on the first free cell after
 * the last draw. */
static void place_apple(uint8_t queued) {
    uint16_t index = 0;
    uint8_t x = 0, y = 0, dx, dy, tries;
    for (tries = 0; tries < 64; tries++) {
        index = (((uint16_t)rng() << 8) | rng()) % (FIELD_W * FIELD_H);
        x = (uint8_t)(index % FIELD_W);
        y = (uint8_t)(index / FIELD_W);
        dx = x > gw_head_x ? x - gw_head_x : gw_head_x - x;
        dy = y > gw_head_y ? y - gw_head_y : gw_head_y - y;
        if (!occupied[y][x] && dx + dy >= APPLE_DISTANCE) break;
    }
    for (;;) {
        x = (uint8_t)(index % FIELD_W);
        y = (uint8_t)(index / FIELD_W);
        if (!occupied[y][x]) break;
        index = index + 1 == FIELD_W * FIELD_H ? 0 : index + 1;
    }
    gw_apple_x = x;
    gw_apple_y = y;
    cell(x, y, T_APPLE, queued);
}

static void draw_hud(uint8_t queued) {
    gb_number(7, 0, gw_score, 3, queued);
    gb_number(16, 0, gw_length, 3, queued);
}

static void draw_frame(void) {
    uint8_t i;
    gb_clear(T_FLOOR);
    for (i = 0; i < SCREEN_W; i++) {
        gb_put(i, 0, T_SPACE);
        gb_put(i, FIELD_Y - 1, T_WALL);
        gb_put(i, FIELD_Y + FIELD_H, T_WALL);
    }
    for (i = FIELD_Y; i < FIELD_Y + FIELD_H; i++) {
        gb_put(0, i, T_WALL);
        gb_put(SCREEN_W - 1, i, T_WALL);
    }
    gb_text(1, 0, "APPLE", 0);
    gb_text(12, 0, "LEN", 0);
}

static void new_game(void) {
    uint8_t x, y, i;
    rng_state = gw_seed ^ 0x5A3Cu;
    if (rng_state == 0) rng_state = 0x2D17u;
    for (i = 0; i < 8; i++) rng();
    for (y = 0; y < FIELD_H; y++)
        for (x = 0; x < FIELD_W; x++)
            occupied[y][x] = 0;
    gb_lcd_off();
    draw_frame();
    head = 2;
    for (i = 0; i < 3; i++) {
        body_x[i] = 6 + i;
        body_y[i] = 7;
        occupied[7][6 + i] = 1;
        cell(6 + i, 7, i == 2 ? T_HEAD_R : T_BODY, 0);
    }
    gw_length = 3;
    gw_score = 0;
    gw_head_x = 8;
    gw_head_y = 7;
    gw_direction = DIR_RIGHT;
    next_dir = DIR_RIGHT;
    gw_speed = START_SPEED;
    gw_ticks = 0;
    gw_cause = 0;
    move_timer = 0;
    place_apple(0);
    draw_hud(0);
    gb_lcd_on();
    gb_wait_vbl();
    gb_wait_vbl();
    gw_mode = MODE_PLAY;
}

static void game_over(uint8_t cause) {
    uint8_t x;
    gw_cause = cause;
    gw_mode = MODE_OVER;
    for (x = 4; x < 16; x++) {
        gb_queue(x, 7, T_INK);
        gb_queue(x, 9, T_INK);
    }
    gb_queue(4, 8, T_INK);
    gb_queue(15, 8, T_INK);
    gb_text(5, 8, " GAME OVER", 1);
}

static void read_input(void) {
    uint8_t pad = gb_joypad();
    uint8_t current = gw_direction;
    if ((pad & J_UP) && current != DIR_DOWN) next_dir = DIR_UP;
    if ((pad & J_DOWN) && current != DIR_UP) next_dir = DIR_DOWN;
    if ((pad & J_LEFT) && current != DIR_RIGHT) next_dir = DIR_LEFT;
    if ((pad & J_RIGHT) && current != DIR_LEFT) next_dir = DIR_RIGHT;
}

static void move(void) {
    uint8_t dir = next_dir;
    uint8_t nx = (uint8_t)(gw_head_x + DX[dir]);
    uint8_t ny = (uint8_t)(gw_head_y + DY[dir]);
    uint8_t grow, tail;
    gw_direction = dir;
    if (nx >= FIELD_W || ny >= FIELD_H) {
        game_over(1);
        return;
    }
    grow = (nx == gw_apple_x && ny == gw_apple_y);
    if (!grow) {
        tail = (uint8_t)(head - gw_length + 1);
        occupied[body_y[tail]][body_x[tail]] = 0;
        cell(body_x[tail], body_y[tail], T_FLOOR, 1);
    }
    if (occupied[ny][nx]) {
        game_over(2);
        return;
    }
    cell(gw_head_x, gw_head_y, T_BODY, 1);
    head++;
    body_x[head] = nx;
    body_y[head] = ny;
    occupied[ny][nx] = 1;
    cell(nx, ny, HEAD_TILE[dir], 1);
    gw_head_x = nx;
    gw_head_y = ny;
    if (grow) {
        gw_length++;
        gw_score++;
        if (gw_speed > MIN_SPEED && gw_score % 3 == 0) gw_speed--;
        if (gw_length == 255) {
            gw_mode = MODE_WON;
            return;
        }
        place_apple(1);
    }
    draw_hud(1);
}

static void title(void) {
    gb_lcd_off();
    gb_load_tiles();
    gb_clear(T_FLOOR);
    gb_text(4, 7, "POCKET SNAKE", 0);
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
        read_input();
        if (++move_timer >= gw_speed) {
            move_timer = 0;
            move();
        }
    }
}
