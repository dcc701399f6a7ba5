"""A bounded depth-first search over a model, with a preallocated stack.

A model is any object with
    gen(out, base) -> n     write its moves (small ints) into out[base:base + n]; 0 at a leaf
    do(move) -> cost        make a move; its cost in work units (1 for a plain move, more
                            when a move does more work, e.g. a cascade of follow-up moves)
    undo()                  unmake the last move
    score() -> int          how good the position is for the player (a small int)
The search tries every line up to max_depth moves or until the work spent reaches the limit
(so the fuel a hint costs is bounded by the limit times the worst cost of one unit), scores
the leaves (positions without moves, or at the depth horizon), and returns the first move of
the best line. Nothing allocates after __init__: the move stack is one array('i').
"""

from array import array

NO_SCORE = -0x3FFFFFFF


class Search:
    def __init__(self, max_depth, max_moves):
        self.max_depth = max_depth
        self.width = max_moves
        self.stack = array("i", [0] * (max_depth * max_moves))
        self.count = array("i", [0] * max_depth)  # moves generated at each depth
        self.tried = array("i", [0] * max_depth)  # moves tried at each depth
        self.nodes = 0  # work units spent by the last run
        self.best_score = NO_SCORE  # score of the best line of the last run
        self.complete = False  # True when the last run saw every line

    def run(self, model, node_limit):  # node_limit: in the model's work units
        """The first move of the best line from the model's position, or -1 without moves."""
        stack = self.stack
        count = self.count
        tried = self.tried
        width = self.width
        last = self.max_depth - 1
        self.nodes = 0
        self.best_score = NO_SCORE
        self.complete = True
        n = model.gen(stack, 0)
        if n == 0:
            return -1
        best_move = stack[0]
        count[0] = n
        tried[0] = 0
        depth = 0
        nodes = 0
        while depth >= 0:
            i = tried[depth]
            if i == count[depth]:
                depth -= 1
                if depth >= 0:
                    model.undo()
                continue
            if nodes >= node_limit:
                self.complete = False
                while depth > 0:  # unwind the line in progress
                    model.undo()
                    depth -= 1
                break
            tried[depth] = i + 1
            nodes += model.do(stack[depth * width + i])
            n = 0
            if depth < last:
                n = model.gen(stack, (depth + 1) * width)
            if n == 0:
                s = model.score()
                if s > self.best_score:
                    self.best_score = s
                    best_move = stack[tried[0] - 1]
                model.undo()
            else:
                depth += 1
                count[depth] = n
                tried[depth] = 0
        self.nodes = nodes
        return best_move
