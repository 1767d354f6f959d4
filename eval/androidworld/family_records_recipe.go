package androidworld

import (
	"github.com/fairy-go/fairy/sim"
)

const recipesPkg = "com.fairy.recipes"

// recipe is recipe._generate_random_recipe: a recipe of the benchmark's list (its title and
// base directions) with a drawn description, servings, preparation time and ingredients,
// and one of the directions' additions after its base directions. Source and favourite
// are the Broccoli row's defaults ("" and 0).
func (g *gen) recipe() sim.Record {
	titles, dirs := recordList("recipe._RECIPES.title"), recordList("recipe._RECIPES.directions")
	i := g.r.IntN(len(titles))
	return g.recipeOf(titles[i], dirs[i])
}

func (g *gen) recipeOf(title, directions string) sim.Record {
	return sim.Record{"title": title, "description": pick(g.r, g.list("recipe.descriptions")),
		"servings": pick(g.r, g.list("recipe._SERVINGS_OPTIONS")), "preparationTime": pick(g.r, g.list("recipe._PREP_TIME_OPTIONS")),
		"source": "", "ingredients": pick(g.r, g.list("recipe.ingredient_descriptors")),
		"directions": directions + " " + pick(g.r, g.list("recipe.directions_additions")), "favorite": "0"}
}

// recipeRows draws n recipes with distinct titles (the delete families' draw).
func recipeRows(g *gen, n int) []sim.Record {
	titles, dirs := recordList("recipe._RECIPES.title"), recordList("recipe._RECIPES.directions")
	var out []sim.Record
	for _, i := range g.r.Perm(len(titles))[:n] {
		out = append(out, g.recipeOf(titles[i], dirs[i]))
	}
	return out
}

// recipeDraws is get_random_items(n, _generate_random_recipe): n recipes none equal to
// another; two of one title may both be drawn.
func recipeDraws(g *gen, n int, keep func(sim.Record) bool) ([]sim.Record, error) {
	return randomDraws(n, g.recipe, sameRow, keep)
}

// recipeDraw is recipeDraws with no filter (the duplicate family's draw).
func recipeDraw(g *gen, n int) ([]sim.Record, error) { return recipeDraws(g, n, nil) }

// recipeAddSingle is RecipeAddSingleRecipe: one recipe, given in one of the benchmark's two
// text forms, added among 10 noise recipes.
var recipeAddSingle = recordsAddMultiple(recipeForm, 1, 10)
