package androidworld

import (
	"slices"

	"github.com/fairy-go/fairy/sim"
)

const recipesPkg = "com.fairy.recipes"

// recipeRows draws n recipes with distinct titles, as recipe._generate_random_recipe
// does (a recipe of the benchmark's list with a drawn description, servings and
// preparation time).
func recipeRows(g *gen, n int) []sim.Record {
	titles := sample(g.r, g.list("recipe._RECIPES.title"), n)
	var out []sim.Record
	for _, t := range titles {
		out = append(out, sim.Record{"title": t, "description": pick(g.r, g.list("recipe.descriptions")),
			"servings": pick(g.r, g.list("recipe._SERVINGS_OPTIONS")), "preparationTime": pick(g.r, g.list("recipe._PREP_TIME_OPTIONS")),
			"ingredients": pick(g.r, g.list("recipe.ingredient_descriptors")), "directions": pick(g.r, g.list("recipe.directions_additions"))})
	}
	return slices.Clip(out)
}
