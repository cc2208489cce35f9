"""Life and death: a group's status by search (`search`, with its eye space `eyes` and candidate moves
`moves`), judged by a network one move deep (`net`, given an evaluator), the groups at stake on a whole
board (`notes`) and problems with their box and frame (`tsumego`, `frame`). Imports only the rules core."""
