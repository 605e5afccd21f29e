/* Gem Maze: GameWorld's homebrew Game Boy maze (sdcc -msm83, no GBDK).
 *
 * A 9x8-cell maze (19x17 tiles) made from the seed. Collect the 6 gems (they lie at least 8 cells from
 * the start, along the passages), then leave by the exit in the bottom-right corner (it opens once the
 * gems are taken) to reach the next maze. A ghost hunts you along the shortest way through the maze (one
 * tile every 7 frames, one frame faster each maze, and now and then it wanders); if it touches you the
 * game is over.
 *
 * Moving: press a direction and you run along the corridor, one tile every 2 frames, following its
 * bends, and stop where the corridor branches or ends. A direction pressed while running is kept for the
 * next branch point (and a press straight back turns you round at once).
 *
 * The GameWorld block (0xC000-0xC0FF) holds what the sandbox reads and the seed it writes; the maze
 * itself is at 0xC100 (19 x 17 bytes, row by row: 0 floor, 1 wall, 2 gem, 3 exit).
 */
#include "gb.h"
#include "gb_tiles.h"

#define MODE_BOOT 0
#define MODE_SEED 1
#define MODE_PLAY 2
#define MODE_OVER 3

#define MAZE_W 19
#define MAZE_H 17
#define CELLS_W 9
#define CELLS_H 8
#define MAZE_Y 1             /* screen row of maze row 0 */
#define GEMS 6
#define GEM_DISTANCE 8       /* gems lie at least this many cells from the start, along the passages */
#define LOOPS 12             /* walls knocked out after the maze is carved: more than one way round */

#define T_EMPTY 0
#define T_SOLID 1
#define T_JEWEL 2
#define T_DOOR 3

#define NONE 4
#define MAP_ROWS 32          /* the second background map (0x9C00) starts 32 rows after the first */
#define LCDC_MAP_9800 0x91   /* LCD on, background on, tiles at 0x8000, map 0x9800 (gb_lcd_on) */
#define LCDC_MAP_9C00 0x99   /* the same with map 0x9C00 */
#define PLAYER_PERIOD 2
#define GHOST_START_PERIOD 7
#define GHOST_MIN_PERIOD 4
#define GHOST_DELAY 60       /* frames the ghost waits at the start of each maze */

volatile __at(0xC000) uint8_t gw_mode;
volatile __at(0xC002) uint16_t gw_score;      /* gems collected in this game */
volatile __at(0xC004) uint8_t gw_gems_left;   /* in this maze */
volatile __at(0xC005) uint8_t gw_mazes;       /* mazes cleared */
volatile __at(0xC006) uint8_t gw_player_x;
volatile __at(0xC007) uint8_t gw_player_y;
volatile __at(0xC008) uint8_t gw_ghost_x;
volatile __at(0xC009) uint8_t gw_ghost_y;
volatile __at(0xC00A) uint8_t gw_moving;      /* 0-3 right down left up, 4 still */
volatile __at(0xC00B) uint8_t gw_exit_open;
volatile __at(0xC00C) uint16_t gw_ticks;
volatile __at(0xC00E) uint8_t gw_ghost_distance;
volatile __at(0xC00F) uint8_t gw_ghost_period;
volatile __at(0xC0F0) uint16_t gw_seed;
volatile __at(0xC0F2) uint8_t gw_seed_flag;
volatile __at(0xC100) uint8_t maze[MAZE_H][MAZE_W];

static const int8_t DX[4] = {1, 0, -1, 0};
static const int8_t DY[4] = {0, 1, 0, -1};

uint16_t rng_state;
uint8_t draw_row;     /* map row of the screen's top: 0 (map 0x9800) or MAP_ROWS (map 0x9C00) */
uint8_t stack_x[CELLS_W * CELLS_H];
uint8_t stack_y[CELLS_W * CELLS_H];
uint8_t want;
uint8_t prev_pad;
uint8_t player_timer;
uint8_t ghost_dir;
uint8_t ghost_timer;
uint8_t ghost_wait;
uint8_t links[CELLS_W * CELLS_H];   /* per cell: bit d set when the passage in direction d is open */
uint8_t dist[CELLS_W * CELLS_H];    /* breadth-first distance of each cell from the player's cell */
uint8_t queue[CELLS_W * CELLS_H];

static uint8_t rng(void) {
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return (uint8_t)rng_state;
}

static uint8_t open_at(uint8_t x, uint8_t y) {
    return x < MAZE_W && y < MAZE_H && maze[y][x] != T_SOLID;
}

static uint8_t open_dir(uint8_t x, uint8_t y, uint8_t dir) {
    return open_at((uint8_t)(x + DX[dir]), (uint8_t)(y + DY[dir]));
}

static uint8_t tile_of(uint8_t x, uint8_t y) {
    uint8_t kind = maze[y][x];
    if (kind == T_SOLID) return T_WALL;
    if (kind == T_JEWEL) return T_GEM;
    if (kind == T_DOOR) return gw_exit_open ? T_EXIT_OPEN : T_EXIT_SHUT;
    return T_FLOOR;
}

static void show(uint8_t x, uint8_t y, uint8_t queued) {
    uint8_t tile = tile_of(x, y);
    if (x == gw_player_x && y == gw_player_y) tile = T_PLAYER;
    if (x == gw_ghost_x && y == gw_ghost_y) tile = T_GHOST;
    if (queued) gb_queue(x, (uint8_t)(draw_row + MAZE_Y + y), tile);
    else gb_put(x, (uint8_t)(draw_row + MAZE_Y + y), tile);
}

static void carve(void) {
    uint8_t x, y, top, cx, cy, n, dir, options[4], nx, ny, i;
    for (y = 0; y < MAZE_H; y++)
        for (x = 0; x < MAZE_W; x++)
            maze[y][x] = T_SOLID;
    /* depth-first: cells are at odd tile coordinates, passages between them */
    top = 0;
    stack_x[0] = 1;
    stack_y[0] = 1;
    maze[1][1] = T_EMPTY;
    for (;;) {
        cx = stack_x[top];
        cy = stack_y[top];
        n = 0;
        for (dir = 0; dir < 4; dir++) {
            nx = (uint8_t)(cx + 2 * DX[dir]);
            ny = (uint8_t)(cy + 2 * DY[dir]);
            if (nx < MAZE_W && ny < MAZE_H && maze[ny][nx] == T_SOLID) options[n++] = dir;
        }
        if (n == 0) {
            if (top == 0) break;
            top--;
            continue;
        }
        dir = options[rng() % n];
        maze[cy + DY[dir]][cx + DX[dir]] = T_EMPTY;
        nx = (uint8_t)(cx + 2 * DX[dir]);
        ny = (uint8_t)(cy + 2 * DY[dir]);
        maze[ny][nx] = T_EMPTY;
        top++;
        stack_x[top] = nx;
        stack_y[top] = ny;
    }
    /* knock out a few inner walls between two cells */
    for (i = 0; i < LOOPS;) {
        x = (uint8_t)(1 + rng() % (MAZE_W - 2));
        y = (uint8_t)(1 + rng() % (MAZE_H - 2));
        if (((x ^ y) & 1) && maze[y][x] == T_SOLID) {
            maze[y][x] = T_EMPTY;
            i++;
        }
    }
}

static void link_cells(void) {
    uint8_t cx, cy, dir, bits;
    for (cy = 0; cy < CELLS_H; cy++)
        for (cx = 0; cx < CELLS_W; cx++) {
            bits = 0;
            for (dir = 0; dir < 4; dir++)
                if (open_dir((uint8_t)(2 * cx + 1), (uint8_t)(2 * cy + 1), dir)) bits |= (uint8_t)(1 << dir);
            links[cy * CELLS_W + cx] = bits;
        }
}

/* Distances (in cells) from the player's cell to every cell, over the maze's passages. */
static void measure(void) {
    static const int8_t STEP[4] = {1, CELLS_W, -1, -CELLS_W};
    uint8_t head = 0, tail = 0, cell, next, dir, bits, d;
    for (cell = 0; cell < CELLS_W * CELLS_H; cell++) dist[cell] = 255;
    cell = (uint8_t)((gw_player_y >> 1) * CELLS_W + (gw_player_x >> 1));
    if (cell >= CELLS_W * CELLS_H) return;
    dist[cell] = 0;
    queue[tail++] = cell;
    while (head != tail) {
        cell = queue[head++];
        bits = links[cell];
        d = (uint8_t)(dist[cell] + 1);
        for (dir = 0; dir < 4; dir++) {
            if (!(bits & (1 << dir))) continue;
            next = (uint8_t)(cell + STEP[dir]);
            if (dist[next] != 255) continue;
            dist[next] = d;
            queue[tail++] = next;
        }
    }
}

/* Gems lie out in the maze: on cells at least GEM_DISTANCE cells from the start along the passages (the
 * player is at the start when this runs), never on the exit. */
static void place_gems(void) {
    uint8_t placed = 0, cx, cy;
    measure();
    while (placed < GEMS) {
        cx = (uint8_t)(rng() % CELLS_W);
        cy = (uint8_t)(rng() % CELLS_H);
        if (dist[cy * CELLS_W + cx] < GEM_DISTANCE) continue;
        if (cx == CELLS_W - 1 && cy == CELLS_H - 1) continue;  /* not on the exit */
        if (maze[2 * cy + 1][2 * cx + 1] != T_EMPTY) continue;
        maze[2 * cy + 1][2 * cx + 1] = T_JEWEL;
        placed++;
    }
    maze[MAZE_H - 2][MAZE_W - 2] = T_DOOR;
}

static void draw_hud(uint8_t queued) {
    gb_number(5, draw_row, gw_gems_left, 1, queued);
    gb_number(18, draw_row, gw_score, 2, queued);
}

static uint8_t distance(void) {
    uint8_t dx = gw_player_x > gw_ghost_x ? gw_player_x - gw_ghost_x : gw_ghost_x - gw_player_x;
    uint8_t dy = gw_player_y > gw_ghost_y ? gw_player_y - gw_ghost_y : gw_ghost_y - gw_player_y;
    return (uint8_t)(dx + dy);
}

/* A new maze. The first (queued = 0) is drawn with the LCD off, before the game is actionable. Later ones
 * are made while the old maze stays on screen, drawn through the VBlank queue into the other background
 * map, and shown at once by switching maps: the screen never goes blank between mazes. */
static void new_maze(uint8_t queued) {
    uint8_t x, y;
    if (!queued) {
        gb_lcd_off();
        draw_row = 0;
    }
    carve();
    link_cells();
    gw_player_x = 1;
    gw_player_y = 1;
    place_gems();
    gw_gems_left = GEMS;
    gw_exit_open = 0;
    gw_ghost_x = MAZE_W - 2;
    gw_ghost_y = 1;
    gw_moving = NONE;
    want = NONE;
    player_timer = 0;
    ghost_dir = NONE;
    ghost_timer = 0;
    ghost_wait = GHOST_DELAY;
    gw_ghost_period = (uint8_t)(GHOST_START_PERIOD > GHOST_MIN_PERIOD + gw_mazes ?
                                GHOST_START_PERIOD - gw_mazes : GHOST_MIN_PERIOD);
    if (queued) draw_row ^= MAP_ROWS;
    for (x = 0; x < SCREEN_W; x++) {
        if (queued) gb_queue(x, draw_row, T_SPACE);
        else gb_put(x, draw_row, T_SPACE);
    }
    gb_text(0, draw_row, "LEFT:", queued);
    gb_text(7, draw_row, "OUT:", queued);                  /* mazes escaped */
    gb_number(11, draw_row, gw_mazes, 2, queued);
    gb_text(14, draw_row, "GEM:", queued);
    draw_hud(queued);
    for (y = 0; y < MAZE_H; y++)
        for (x = 0; x < MAZE_W; x++)
            show(x, y, queued);
    for (y = MAZE_Y; y < SCREEN_H; y++) {
        if (queued) gb_queue(SCREEN_W - 1, (uint8_t)(draw_row + y), T_SPACE);
        else gb_put(SCREEN_W - 1, (uint8_t)(draw_row + y), T_SPACE);
    }
    gw_ghost_distance = distance();
    if (queued) {
        gb_wait_vbl();                              /* the last queued tiles are written */
        rLCDC = draw_row ? LCDC_MAP_9C00 : LCDC_MAP_9800;
    } else {
        gb_lcd_on();
        gb_wait_vbl();
        gb_wait_vbl();
    }
}

static void new_game(void) {
    uint8_t i;
    rng_state = gw_seed ^ 0xB38Du;
    if (rng_state == 0) rng_state = 0x1F2Eu;
    for (i = 0; i < 8; i++) rng();
    gw_score = 0;
    gw_mazes = 0;
    gw_ticks = 0;
    new_maze(0);
    gw_mode = MODE_PLAY;
}


static void caught(void) {
    uint8_t x;
    gw_mode = MODE_OVER;
    for (x = 5; x < 14; x++) {
        gb_queue(x, (uint8_t)(draw_row + 8), T_INK);
        gb_queue(x, (uint8_t)(draw_row + 10), T_INK);
    }
    gb_queue(5, (uint8_t)(draw_row + 9), T_INK);
    gb_queue(13, (uint8_t)(draw_row + 9), T_INK);
    gb_text(6, (uint8_t)(draw_row + 9), "CAUGHT!", 1);
}

static void open_exit(void) {
    gw_exit_open = 1;
    show(MAZE_W - 2, MAZE_H - 2, 1);
}

/* The player arrives on a tile: take a gem, leave by an open exit. Returns 1 if a new maze began. */
static uint8_t arrive(void) {
    uint8_t x = gw_player_x, y = gw_player_y;
    if (maze[y][x] == T_JEWEL) {
        maze[y][x] = T_EMPTY;
        gw_score++;
        gw_gems_left--;
        draw_hud(1);
        if (gw_gems_left == 0) open_exit();
    } else if (maze[y][x] == T_DOOR && gw_exit_open) {
        gw_mazes++;
        gb_number(11, draw_row, gw_mazes, 2, 1);   /* the count on screen at once, while the next maze is made */
        gb_wait_vbl();
        new_maze(1);
        return 1;
    }
    return 0;
}

/* At a cell centre: the wanted direction if open, else follow the corridor, else stop. */
static void choose(void) {
    uint8_t dir, exits = 0, only = NONE, back;
    if (want != NONE) {
        if (open_dir(gw_player_x, gw_player_y, want)) {
            gw_moving = want;
            want = NONE;
            return;
        }
    }
    if (gw_moving == NONE) {
        want = NONE;
        return;
    }
    back = (uint8_t)((gw_moving + 2) & 3);
    for (dir = 0; dir < 4; dir++) {
        if (dir != back && open_dir(gw_player_x, gw_player_y, dir)) {
            exits++;
            only = dir;
        }
    }
    if (exits == 1) {
        gw_moving = only;
    } else {
        gw_moving = NONE;
        want = NONE;
    }
}

static void player_frame(void) {
    uint8_t pad = gb_joypad(), pressed = pad & (uint8_t)~prev_pad, old_x, old_y;
    prev_pad = pad;
    if (pressed & J_RIGHT) want = 0;
    if (pressed & J_DOWN) want = 1;
    if (pressed & J_LEFT) want = 2;
    if (pressed & J_UP) want = 3;
    if (gw_moving == NONE) {
        if (want != NONE) {
            choose();
            player_timer = 0;
        }
        return;
    }
    if (want != NONE && want == ((gw_moving + 2) & 3) && open_dir(gw_player_x, gw_player_y, want)) {
        gw_moving = want;                                 /* straight back: at once */
        want = NONE;
    }
    if (++player_timer < PLAYER_PERIOD) return;
    player_timer = 0;
    if (!open_dir(gw_player_x, gw_player_y, gw_moving)) { /* never into a wall */
        gw_moving = NONE;
        want = NONE;
        return;
    }
    old_x = gw_player_x;
    old_y = gw_player_y;
    gw_player_x = (uint8_t)(gw_player_x + DX[gw_moving]);
    gw_player_y = (uint8_t)(gw_player_y + DY[gw_moving]);
    show(old_x, old_y, 1);
    if (arrive()) return;
    show(gw_player_x, gw_player_y, 1);
    if ((gw_player_x & 1) && (gw_player_y & 1)) choose();
}

static void ghost_frame(void) {
    uint8_t dir, best = NONE, best_d = 255, n = 0, options[4], cell, d, old_x, old_y;
    if (ghost_wait) {
        ghost_wait--;
        return;
    }
    if (++ghost_timer < gw_ghost_period) return;
    ghost_timer = 0;
    if ((gw_ghost_x & 1) && (gw_ghost_y & 1)) {
        /* at a cell centre: head along the shortest way to the player (now and then, wander) */
        measure();
        cell = (uint8_t)((gw_ghost_y >> 1) * CELLS_W + (gw_ghost_x >> 1));
        for (dir = 0; dir < 4; dir++) {
            if (!(links[cell] & (1 << dir))) continue;
            options[n++] = dir;
            d = dist[(uint8_t)(cell + (dir == 0 ? 1 : dir == 1 ? CELLS_W : dir == 2 ? -1 : -CELLS_W))];
            if (d < best_d) {
                best_d = d;
                best = dir;
            }
        }
        if (n && (rng() & 7) == 0) best = options[rng() % n];
        ghost_dir = best;
    }
    if (ghost_dir == NONE) return;
    old_x = gw_ghost_x;
    old_y = gw_ghost_y;
    gw_ghost_x = (uint8_t)(gw_ghost_x + DX[ghost_dir]);
    gw_ghost_y = (uint8_t)(gw_ghost_y + DY[ghost_dir]);
    show(old_x, old_y, 1);
    show(gw_ghost_x, gw_ghost_y, 1);
}

static void title(void) {
    gb_lcd_off();
    gb_load_tiles();
    gb_clear(T_SPACE);
    gb_text(6, 7, "GEM MAZE", 0);
    gb_text(5, 10, "GAMEWORLD", 0);
    gb_lcd_on();
}

void main(void) {
    uint8_t px, py, gx, gy;
    title();
    gw_mode = MODE_SEED;
    while (!gw_seed_flag) gb_wait_vbl();
    new_game();
    for (;;) {
        gb_wait_vbl();
        if (gw_mode != MODE_PLAY) continue;
        gw_ticks++;
        px = gw_player_x;
        py = gw_player_y;
        gx = gw_ghost_x;
        gy = gw_ghost_y;
        player_frame();
        if (gw_mode != MODE_PLAY) continue;
        ghost_frame();
        gw_ghost_distance = distance();
        /* touching, or passing through each other this frame */
        if (gw_ghost_distance == 0 ||
            (gw_player_x == gx && gw_player_y == gy && gw_ghost_x == px && gw_ghost_y == py)) {
            caught();
        }
    }
}
