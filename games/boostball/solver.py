"""Scripted player for boostball (Boost Ball); writes the reference trajectories into the manifest.

Each step it reads the state (ball position and velocity, its own car, boost, the rival's position) and plans
three steps ahead with a copy of the game's physics for the ball, its own car (drive, boost, jumps, flips, the
car-ball hit) and the rival (its chase-and-defend rules, with its speed and reach taken at their means and its
velocity read from the last two states): every first action x 6 second actions x 4 third actions is simulated
tick by tick, then the ball is forecast on its own. A plan that scores (or whose ball is headed into the
orange goal, and stays headed there with the rival playing) wins, one headed into its own goal loses;
otherwise it prefers the ball far right and moving right, and its car just left of where the ball comes down.
It plays the first action of the best plan.

    .venv/bin/python games/boostball/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")

W, GY, CEIL, LW, RW, GOAL_TOP, BR = 480, 322, 52, 30, 450, 258, 12
BALL_G, MAX_BALL = 0.16, 11.0

RIGHT = {"type": "press_key", "key": "ArrowRight"}
LEFT = {"type": "press_key", "key": "ArrowLeft"}
WAIT = {"type": "wait"}
BOOST_RIGHT = {"type": "press_keys", "keys": ["ArrowRight", "KeyX"]}
BOOST_LEFT = {"type": "press_keys", "keys": ["ArrowLeft", "KeyX"]}
JUMP = {"type": "press_key", "key": "ArrowUp"}
JUMP_RIGHT = {"type": "press_keys", "keys": ["ArrowUp", "ArrowRight"]}
JUMP_LEFT = {"type": "press_keys", "keys": ["ArrowUp", "ArrowLeft"]}


def ball_step(b):
    """One tick of the game's ball physics (game.js ballStep, without the goal nets)."""
    x, y, vx, vy = b
    vy += BALL_G
    vx *= 0.996
    x += vx
    y += vy
    if y + BR > GY:
        y = GY - BR
        vy = -vy * 0.6 if vy > 0.9 else 0.0
        vx *= 0.975
    if y - BR < CEIL:
        y = CEIL + BR
        vy = -vy * 0.7
    if y <= GOAL_TOP:
        if x - BR < LW:
            x, vx = LW + BR, -vx * 0.55
        if x + BR > RW:
            x, vx = RW - BR, -vx * 0.55
    s2 = vx * vx + vy * vy
    if s2 > MAX_BALL * MAX_BALL:
        k = MAX_BALL / s2 ** 0.5
        vx, vy = vx * k, vy * k
    return x, y, vx, vy


def predict(state, ticks):
    b = (float(state["ball_x"]), float(state["ball_y"]), state["ball_vx"] / 10, state["ball_vy"] / 10)
    path = [b]
    for _ in range(ticks):
        b = ball_step(b)
        path.append(b)
    return path


CAR_HW, CAR_H, CAR_G = 18, 15, 0.22
DRIVE_ACC, DRIVE_MAX, BOOST_ACC, BOOST_MAX, JUMP_V, FLIP_V = 0.4, 3.4, 0.45, 6.4, 5.2, 6.8
TICKS = 12                                   # logic ticks in one 200 ms step
# (direction, boost, jump) of each action the planner considers
PLANS = {"right": (1, False, False), "boost_right": (1, True, False), "jump_right": (1, False, True),
         "left": (-1, False, False), "boost_left": (-1, True, False), "jump_left": (-1, False, True),
         "jump": (0, False, True), "wait": (0, False, False)}
ACTIONS = {"right": RIGHT, "boost_right": BOOST_RIGHT, "jump_right": JUMP_RIGHT, "left": LEFT,
           "boost_left": BOOST_LEFT, "jump_left": JUMP_LEFT, "jump": JUMP, "wait": WAIT}
SECOND = ("right", "boost_right", "jump_right", "left", "boost_left", "wait")
THIRD = ("right", "jump_right", "left", "wait")


class Car:
    __slots__ = ("x", "y", "vx", "vy", "face", "grounded", "jumps", "flip", "boost", "contact", "cool")

    def __init__(self, state):
        self.x, self.y = float(state["car_x"]), float(state["car_y"])
        self.vx, self.vy = state["car_vx"] / 10, state["car_vy"] / 10
        self.face, self.grounded, self.jumps = state["car_face"], state["car_grounded"] == 1, state["car_jumps"]
        self.flip, self.boost, self.contact, self.cool = 0, float(state["boost"]), False, 0

    def copy(self):
        c = Car.__new__(Car)
        for k in Car.__slots__:
            setattr(c, k, getattr(self, k))
        return c

    def tick(self, d, boost, jump):
        """game.js drive() for the player's car."""
        if self.grounded:
            if d:
                self.vx += d * (DRIVE_ACC * 1.6 if self.vx * d < 0 else DRIVE_ACC)
                self.face = d
            else:
                self.vx *= 0.88
                if abs(self.vx) < 0.05:
                    self.vx = 0.0
        elif d:
            self.vx += d * 0.08
        cap = DRIVE_MAX
        if boost and self.boost > 0:
            self.vx += self.face * BOOST_ACC
            self.boost = max(0.0, self.boost - 0.5)
            cap = BOOST_MAX
        if self.vx > cap:
            self.vx = max(cap, self.vx * 0.95)
        if self.vx < -cap:
            self.vx = min(-cap, self.vx * 0.95)
        if jump:
            if self.grounded:
                self.vy, self.grounded, self.jumps = -JUMP_V, False, 1
            elif self.jumps == 1:
                self.jumps = 2
                if d:
                    self.vx, self.vy, self.flip, self.face = d * FLIP_V, min(self.vy, -1.5), 24, d
                else:
                    self.vy = -4.2
        if self.flip > 0:
            self.flip -= 1
        if not self.grounded:
            self.vy += CAR_G
        self.x += self.vx
        self.y += self.vy
        if self.y >= GY:
            self.y, self.vy = float(GY), 0.0
            if not self.grounded:
                self.grounded, self.jumps, self.flip = True, 0, 0
                if abs(self.vx) > cap:
                    self.vx = cap if self.vx > 0 else -cap
        if self.y - CAR_H < CEIL:
            self.y, self.vy = float(CEIL + CAR_H), 0.0
        if self.x < LW + CAR_HW:
            self.x, self.vx = float(LW + CAR_HW), 0.0
        if self.x > RW - CAR_HW:
            self.x, self.vx = float(RW - CAR_HW), 0.0

    def hit(self, b):
        """game.js hitBall(): the ball after touching this car, and whether it was touched."""
        x, y, vx, vy = b
        cx = min(max(x, self.x - CAR_HW), self.x + CAR_HW)
        cy = min(max(y, self.y - CAR_H), self.y)
        dx, dy = x - cx, y - cy
        d2 = dx * dx + dy * dy
        if d2 >= BR * BR:
            return b, False
        if d2 < 0.0001:
            nx, ny, d = 0.0, -1.0, 0.0
        else:
            d = d2 ** 0.5
            nx, ny = dx / d, dy / d
        x += nx * (BR - d)
        y += ny * (BR - d)
        vn = (vx - self.vx) * nx + (vy - self.vy) * ny
        if vn < 0:
            vx -= 1.4 * vn * nx
            vy -= 1.4 * vn * ny
            cvn = max(0.0, self.vx * nx + self.vy * ny)
            power = 0.6 + 0.3 * cvn + (3.5 if self.flip > 0 else 0)
            vx += nx * power
            vy += ny * power - 0.4 * abs(self.vx * nx)
        return (x, y, vx, vy), True


def goal_side(b):
    if b[1] > GOAL_TOP and b[0] > RW + BR:
        return 1
    if b[1] > GOAL_TOP and b[0] < LW - BR:
        return -1
    return 0


def ball_forecast(b, ticks):
    for t in range(ticks):
        b = ball_step(b)
        s = goal_side(b)
        if s:
            return s, t, b
    return 0, ticks, b


OPP_SPEED, OPP_REACH = 3.3, 41


class Opp:
    __slots__ = ("x", "y", "vx", "vy", "grounded", "jumps", "jumpCool", "contact", "rush")

    def copy(self):
        o = Opp.__new__(Opp)
        for k in Opp.__slots__:
            setattr(o, k, getattr(self, k))
        return o

    def tick(self, b):
        """game.js aiControl() and drive() for the rival (its speed and reach taken at their means)."""
        bx, by, bvx, bvy = b
        d, jump = 0, False
        dx = bx - self.x
        if self.jumpCool > 0:
            self.jumpCool -= 1
        can = self.grounded and self.jumpCool == 0
        self.rush = False
        if dx < -4:
            target = bx + 4 + bvx * 6
            if can and -50 < dx and GY - 110 < by < GY - 36 and bvy > 0:
                jump = True
            if can and dx > -CAR_HW and by < self.y - CAR_H:
                jump = True
            if can and bvx > 2.5 and -70 < dx < -10 and GY - 120 < by < GY - 30:
                jump = True
        else:
            target = min(RW + 4, bx + OPP_REACH)
            self.rush = True
        if target < self.x - 3:
            d = -1
        elif target > self.x + 3:
            d = 1
        if jump:
            self.jumpCool = 60
        if self.grounded:
            if d:
                self.vx += d * (DRIVE_ACC * 1.6 if self.vx * d < 0 else DRIVE_ACC)
            else:
                self.vx *= 0.88
                if abs(self.vx) < 0.05:
                    self.vx = 0.0
        elif d:
            self.vx += d * (0.3 if self.rush else 0.08)
        cap = OPP_SPEED + 3 if self.rush else OPP_SPEED
        if self.vx > cap:
            self.vx = max(cap, self.vx * 0.95)
        if self.vx < -cap:
            self.vx = min(-cap, self.vx * 0.95)
        if jump and self.grounded:
            self.vy, self.grounded, self.jumps = -JUMP_V, False, 1
        if not self.grounded:
            self.vy += CAR_G
        self.x += self.vx
        self.y += self.vy
        if self.y >= GY:
            self.y, self.vy = float(GY), 0.0
            if not self.grounded:
                self.grounded, self.jumps = True, 0
                if abs(self.vx) > cap:
                    self.vx = cap if self.vx > 0 else -cap
        if self.y - CAR_H < CEIL:
            self.y, self.vy = float(CEIL + CAR_H), 0.0
        if self.x < LW + CAR_HW:
            self.x, self.vx = float(LW + CAR_HW), 0.0
        if self.x > RW + 4:
            self.x, self.vx = float(RW + 4), 0.0

    def hit(self, b):
        """game.js: the rival touches the ball unless it is rotating back (ghost), and traps a ball headed right."""
        x, y, vx, vy = b
        if x > self.x + 2:
            self.contact = False
            return b
        cx = min(max(x, self.x - CAR_HW), self.x + CAR_HW)
        cy = min(max(y, self.y - CAR_H), self.y)
        dx, dy = x - cx, y - cy
        d2 = dx * dx + dy * dy
        if d2 >= BR * BR:
            self.contact = False
            return b
        if d2 < 0.0001:
            nx, ny, d = 0.0, -1.0, 0.0
        else:
            d = d2 ** 0.5
            nx, ny = dx / d, dy / d
        x += nx * (BR - d)
        y += ny * (BR - d)
        vn = (vx - self.vx) * nx + (vy - self.vy) * ny
        if vn < 0:
            vx -= 1.4 * vn * nx
            vy -= 1.4 * vn * ny
            cvn = max(0.0, self.vx * nx + self.vy * ny)
            power = 0.6 + 0.3 * cvn
            vx += nx * power
            vy += ny * power - 0.4 * abs(self.vx * nx)
        self.contact = True
        if vx > 1.5:
            vx = 1.5
        return (x, y, vx, vy)


def forecast_with(opp, ball, ticks):
    """Where the ball ends up within `ticks` with the rival playing (the player's car out of the way)."""
    for t in range(ticks):
        opp.tick(ball)
        ball = ball_step(ball)
        ball = opp.hit(ball)
        s = goal_side(ball)
        if s:
            return s, t, ball
    return 0, ticks, ball


class Player:
    """One action a call, chosen from the state (never from pixels): a three-step look-ahead with the game's
    physics for the ball, its own car and the rival."""

    def __init__(self, task):
        self.task = task
        self.prev = None
        self.cool = 0

    def observe(self, state):
        """The rival as the planner models it: position from the state, velocity from the last state, and
        its jump cool-down counted from the step it was seen leaving the ground."""
        o = Opp.__new__(Opp)
        o.x, o.y = float(state["opp_x"]), float(state["opp_y"])
        p = self.prev
        if p is not None and p["phase"] == "play" and state["phase"] == "play":
            o.vx, o.vy = (o.x - p["opp_x"]) / TICKS, (o.y - p["opp_y"]) / TICKS
            self.cool = 60 - TICKS if p["opp_y"] >= GY and o.y < GY else max(0, self.cool - TICKS)
        else:
            o.vx = o.vy = 0.0
            self.cool = 0
        o.grounded = o.y >= GY
        if o.grounded:
            o.vy = 0.0
        o.jumps = 0 if o.grounded else 1
        o.jumpCool = self.cool
        o.contact = o.rush = False
        self.prev = state
        return o

    def simulate(self, car, opp, ball, plan):
        touched = False
        for name in plan:
            d, boost, jump = PLANS[name]
            for t in range(TICKS):
                car.tick(d, boost, jump and t == 0)
                opp.tick(ball)
                ball = ball_step(ball)
                ball, hit = car.hit(ball)
                touched = touched or hit
                ball = opp.hit(ball)
                s = goal_side(ball)
                if s:
                    return car, opp, ball, touched, s
        return car, opp, ball, touched, 0

    def value(self, car, opp, ball, side):
        if side:
            return 100000 * side
        s, t, end = ball_forecast(ball, 70)
        if s == 1:                                # headed in on its own: does the rival stop it?
            s, t, end = forecast_with(opp.copy(), ball, 70)
            if s == -1:
                s = 0
        if s == 1:
            return 50000 - 100 * t
        if s == -1:
            return -50000 + 100 * t
        bx, by, bvx, bvy = ball
        v = 4 * bx + 30 * bvx
        tx = bx                                   # where the ball comes down within reach (a high ball)
        if by < GY - 70:
            b = ball
            for _ in range(60):
                b = ball_step(b)
                if b[1] > GY - 70 and b[3] > 0:
                    tx = b[0]
                    break
        gap = tx - car.x
        if gap < 0:
            v += 6 * gap - 40                      # on the wrong side of the ball
        else:
            v -= 1.5 * abs(gap - 26) + 0.5 * abs(GY - 12 - by)
        v += 0.2 * car.boost
        return v

    def act(self, env, state, info):
        opp0 = self.observe(state)
        if state["phase"] != "play":
            return BOOST_RIGHT if state["boost"] > 0 else RIGHT
        ball0 = (float(state["ball_x"]), float(state["ball_y"]), state["ball_vx"] / 10, state["ball_vy"] / 10)
        car0 = Car(state)
        best, best_v = "right", None
        for first in PLANS:
            for second in SECOND:
                for third in THIRD:
                    car, opp, ball, touched, side = self.simulate(car0.copy(), opp0.copy(), ball0,
                                                                  (first, second, third))
                    v = self.value(car, opp, ball, side)
                    if best_v is None or v > best_v:
                        best, best_v = first, v
        return ACTIONS[best]


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"goals={s['goals']} against={s['goals_against']} "
                                              f"touches={s['touches']} shots={s['shots']} time_left={s['time_left']}")


if __name__ == "__main__":
    main()
